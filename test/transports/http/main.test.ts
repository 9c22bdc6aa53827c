import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'src', 'transports', 'http', 'main.ts');
/** tsx's loader by absolute URL: the child runs in a folder of its own, where `tsx` does not resolve. */
const TSX = pathToFileURL(join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

// Each test starts a process through tsx: a cold start alone took 30 s on the shared machine at load 25.
describe('npm run start:http', { timeout: 90_000 }, () => {
  it('refuses to start without DISCORD_PUBLIC_KEY, naming the setting', async () => {
    // An empty folder as working directory, so no developer's .env supplies a key.
    const cwd = await mkdtemp(join(tmpdir(), 'newsdesk-http-main-'));
    try {
      const { DISCORD_PUBLIC_KEY: _ignored, ...env } = process.env;
      const failure = await run(process.execPath, ['--import', TSX, MAIN], { cwd, env }).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('DISCORD_PUBLIC_KEY: required by the HTTP endpoint');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('refuses a public key that is not 64 hex characters', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'newsdesk-http-main-'));
    try {
      const env = { ...process.env, DISCORD_PUBLIC_KEY: 'not-a-key' };
      const failure = await run(process.execPath, ['--import', TSX, MAIN], { cwd, env }).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain(
        'DISCORD_PUBLIC_KEY must be 64 hex characters (the public key on the developer portal); got "not-a-key"',
      );
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
