import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
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

  it('with METRICS_PORT serves /metrics on that port, on loopback, and not on HTTP_PORT', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'newsdesk-http-main-'));
    const { publicKey } = generateKeyPairSync('ed25519');
    const env = {
      ...process.env,
      DISCORD_PUBLIC_KEY: publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex'),
      CORPUS_PATH: join(ROOT, 'corpus'),
      INDEX_CACHE_DIR: '',
      DATA_DIR: '',
      HTTP_PORT: '0',
      METRICS_PORT: '0',
    };
    const child = spawn(process.execPath, ['--import', TSX, MAIN], {
      cwd,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const listening = await new Promise<{ url: string; metrics: string }>((resolve, reject) => {
        let text = '';
        child.stderr.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          const line = text
            .split('\n')
            .find((entry) => entry.includes('HTTP interactions endpoint listening'));
          if (line) resolve(JSON.parse(line) as { url: string; metrics: string });
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
      });
      expect(listening.metrics).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      const publicBase = listening.url.replace('0.0.0.0', '127.0.0.1').replace('/interactions', '');
      expect((await fetch(`${publicBase}/metrics`)).status).toBe(404);
      expect((await fetch(`${publicBase}/healthz`)).status).toBe(200);
      const scraped = await fetch(listening.metrics);
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toContain('newsdesk_corpus_articles 3');
    } finally {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
