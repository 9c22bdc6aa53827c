import { defineConfig } from 'vitest/config';
import { inCi, sharedDataPresent } from './test/support/shared-data.ts';
import { SharedDataSkips } from './test/support/shared-data-skips.ts';

// Outside CI, a clone without ../shared skips what reads it and says so; in CI nothing is skipped.
const skipSharedData = !sharedDataPresent && !inCi;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One line saying why the tests of several hosts are skipped where PostgreSQL or Redis is missing;
    // a failed run if a test wrote the bot's default .data/ or .cache/ into the checkout.
    globalSetup: ['test/support/servers-setup.ts', 'test/support/checkout-untouched.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    tags: [
      {
        name: 'shared-data',
        description: 'reads the data sets of ../shared (absent from a clone; CI has them)',
        skip: skipSharedData,
      },
    ],
    reporters: skipSharedData ? ['default', new SharedDataSkips()] : ['default'],
  },
});
