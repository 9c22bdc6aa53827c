import { execFileSync } from 'node:child_process';
import { defineConfig } from 'vitest/config';
import { missingServers } from './test/support/servers.ts';
import { inCi, sharedDataPresent } from './test/support/shared-data.ts';
import { SkippedHere, type SkipReason } from './test/support/skipped-here.ts';

// Outside CI, a clone without ../shared, PostgreSQL and Redis or systemd-analyze skips the tests that
// need them, and the run's last line says which; in CI nothing is skipped (they fail instead).
const skipSharedData = !sharedDataPresent && !inCi;
const serversMissing = missingServers();
const skipServers = serversMissing !== undefined && !inCi;
const systemdAnalyze = (() => {
  try {
    execFileSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const skipSystemd = !systemdAnalyze && !inCi;

const skipped: SkipReason[] = [
  ...(skipSharedData
    ? [
        {
          tag: 'shared-data',
          why: 'that read ../shared (the NewsQA, Reuters and BBC data sets, not in a clone)',
        },
      ]
    : []),
  ...(skipServers
    ? [{ tag: 'several-hosts', why: `of several hosts, which start real servers: ${serversMissing}` }]
    : []),
  ...(skipSystemd ? [{ tag: 'systemd', why: 'that need systemd-analyze (apt-get install systemd)' }] : []),
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Under CI=true, a line saying the tests of several hosts fail where PostgreSQL or Redis is
    // missing; a failed run if a test wrote the bot's default .data/ or .cache/ into the checkout.
    globalSetup: ['test/support/servers-setup.ts', 'test/support/checkout-untouched.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    tags: [
      {
        name: 'shared-data',
        description: 'reads the data sets of ../shared (absent from a clone; CI has them)',
        skip: skipSharedData,
      },
      {
        name: 'several-hosts',
        description: 'starts real PostgreSQL and Redis servers (Debian packages; CI installs them)',
        skip: skipServers,
      },
      {
        name: 'systemd',
        description: 'runs systemd-analyze (CI installs it)',
        skip: skipSystemd,
      },
    ],
    reporters: skipped.length > 0 ? ['default', new SkippedHere(skipped)] : ['default'],
  },
});
