import { execFile, execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/**
 * The packages `npm ci --omit=dev` installs, as npm lists them from the lockfile (its own answer, not
 * ours), each a top-level folder of node_modules (the packages nested in one come along with it).
 */
function productionPackages(): string[] {
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .map((line) => path.relative(ROOT, line))
    .filter((folder) => /^node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(folder));
}

/** Hard links where the filesystem allows (a copy of 100 MB in no time), a copy otherwise. */
function linkOrCopy(from: string, to: string): void {
  try {
    execFileSync('cp', ['-al', from, to]);
  } catch {
    execFileSync('cp', ['-a', from, to]);
  }
}

describe('a production install (npm ci --omit=dev)', () => {
  let app: string;

  beforeAll(async () => {
    app = await mkdtemp(path.join(tmpdir(), 'newsdesk-production-'));
    for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'src', 'commands', 'corpus'])
      await cp(path.join(ROOT, entry), path.join(app, entry), { recursive: true });
    for (const folder of productionPackages()) {
      await mkdir(path.dirname(path.join(app, folder)), { recursive: true });
      linkOrCopy(path.join(ROOT, folder), path.join(app, folder));
    }
  }, 120_000);

  afterAll(async () => {
    if (app) await rm(app, { recursive: true, force: true });
  });

  it('has none of the development packages', () => {
    expect(productionPackages()).not.toContain('node_modules/vitest');
    expect(productionPackages()).not.toContain('node_modules/typescript');
  });

  it('npm start answers a piped /ask on the bundled corpus', async () => {
    const child = run('npm', ['start', '--silent'], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: app,
        DISCORD_TOKEN: '',
        INDEX_CACHE_DIR: '',
        DATA_DIR: '',
      },
    });
    child.child.stdin?.end('/ask who threatened the mayor of Teteghem? limit:1\n/quit\n');
    const { stdout } = await child;
    expect(stdout).toContain('One passage answers your question:');
    expect(stdout).toContain('cite teteghem-mayor-threatened-with-gun#');
  }, 120_000);
});
