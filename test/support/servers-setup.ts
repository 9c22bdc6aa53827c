// Vitest's global setup: under CI=true, says once why the tests of several hosts fail on a machine
// without PostgreSQL or Redis. Elsewhere they are skipped, and the run's last line says so
// (test/support/skipped-here.ts).
import { missingServers } from './servers.ts';

export default function setup(): void {
  const missing = missingServers();
  if (missing === undefined || process.env.CI !== 'true') return;
  process.stdout.write(`newsdesk tests: ${missing}; CI=true, so the tests of several hosts fail\n`);
}
