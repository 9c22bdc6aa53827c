import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One line saying why the tests of several hosts are skipped where PostgreSQL or Redis is missing.
    globalSetup: ['test/support/servers-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
