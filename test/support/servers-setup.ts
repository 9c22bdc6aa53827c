// Vitest's global setup: says once, in one line, why the tests of several hosts are skipped on a
// machine without PostgreSQL or Redis (a user's clone). Under CI=true those tests fail instead.
import { missingServers } from './servers.ts';

export default function setup(): void {
  const missing = missingServers();
  if (missing === undefined) return;
  if (process.env.CI === 'true') {
    process.stdout.write(`newsdesk tests: ${missing}; CI=true, so the tests of several hosts fail\n`);
    return;
  }
  process.stdout.write(`newsdesk tests: skipping the tests of several hosts: ${missing}\n`);
}
