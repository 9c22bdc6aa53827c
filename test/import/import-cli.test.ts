import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCoverageSite } from '../support/coverage-site.ts';
import type { LocalWebServer } from '../support/local-web-server.ts';
import { nestedPage } from '../support/nested-page.ts';

const run = promisify(execFile);

async function importInto(folder: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'src/import/import-cli.ts', ...args], {
      env: { ...process.env, CORPUS_PATH: folder, FETCH_ALLOW_PRIVATE: 'true', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run import', () => {
  let site: LocalWebServer;
  let folder: string;

  beforeAll(async () => {
    site = await startCoverageSite();
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-import-'));
    await cp('corpus', folder, { recursive: true });
  });

  afterAll(async () => {
    await site?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('imports a link, a feed and a saved page into CORPUS_PATH, with a progress line each and a summary', async () => {
    const { code, stdout, stderr } = await importInto(folder, [
      site.url('/harbour'),
      site.url('/feeds/france.rss'),
      'test/fixtures/web/news-article.html',
      site.url('/france'),
    ]);
    expect(stdout).toBe(
      `Imported 3 articles into ${folder} (1 already there, 1 failed). A running bot serves them after /reload or SIGHUP (or by itself with WATCH_CORPUS=true).\n`,
    );
    expect(code).toBe(0);
    expect(stderr).toContain(`added calais-harbour-works-delayed.md: ${site.url('/harbour')}`);
    expect(stderr).toContain(`feed with 2 items: ${site.url('/feeds/france.rss')}`);
    expect(stderr).toContain('added dunkirk-opens-winter-shelter-for-400-migrants.md');
    expect(stderr).toContain('added boulogne-fishermen-block-port.md');
    // The saved copy of an article the feed brought in is recognised by its canonical URL.
    expect(stderr).toContain(
      'skipped, already in the corpus as dunkirk-opens-winter-shelter-for-400-migrants: test/fixtures/web/news-article.html',
    );
    expect(stderr).toContain(
      `failed (This page does not look like a news article: no body of several paragraphs was found on it.): ${site.url('/france')}`,
    );
    expect((await readdir(folder)).filter((name) => !name.startsWith('.')).sort()).toEqual([
      'boulogne-fishermen-block-port.md',
      'calais-harbour-works-delayed.md',
      'calais-mayor-renews-border-threat.md',
      'calais-mayor-threatens-to-open-borders.md',
      'dunkirk-opens-winter-shelter-for-400-migrants.md',
      'teteghem-mayor-threatened-with-gun.md',
    ]);
    const boulogne = await readFile(join(folder, 'boulogne-fishermen-block-port.md'), 'utf8');
    expect(boulogne).toContain(`url: "${site.url('/boulogne')}"`);
    expect(boulogne).toContain("next year's fishing quotas");
  }, 120_000);

  it('exits non-zero when nothing could be imported', async () => {
    const { code, stdout } = await importInto(folder, [site.url('/harbour'), 'http://169.254.169.254/'], {
      FETCH_ALLOW_PRIVATE: 'false',
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Imported 0 articles into .* \(0 already there, 2 failed\)\.\n$/);
  }, 120_000);

  it('says in plain words that a saved page is missing or a folder, without a stack trace', async () => {
    const saved = await mkdtemp(join(tmpdir(), 'newsdesk-saved-'));
    await mkdir(join(saved, 'pages.html'));
    const { code, stdout, stderr } = await importInto(folder, ['missing.html', join(saved, 'pages.html')]);
    await rm(saved, { recursive: true });
    expect(code).toBe(1);
    expect(stderr).toBe(
      '[0 added, 0 skipped, 1 failed] failed (no such file): missing.html\n' +
        `[0 added, 0 skipped, 2 failed] failed (a folder, not a saved page): ${join(saved, 'pages.html')}\n`,
    );
    expect(stdout).toMatch(/^Imported 0 articles into .* \(0 already there, 2 failed\)\.\n$/);
  }, 120_000);

  it('refuses a saved page past the depth bound, ends the reading of one past the time limit, and exits', async () => {
    const pages = await mkdtemp(join(tmpdir(), 'newsdesk-import-pages-'));
    try {
      await writeFile(join(pages, 'deep.html'), nestedPage(5000));
      await writeFile(join(pages, 'slow.html'), nestedPage(900));
      const started = performance.now();
      const { code, stderr } = await importInto(
        folder,
        [join(pages, 'deep.html'), join(pages, 'slow.html')],
        {
          EXTRACT_MAX_DEPTH: '1000',
          EXTRACT_TIME_LIMIT_MS: '1000',
        },
      );
      expect(code).toBe(1);
      expect(stderr).toContain(
        `failed (The page nests its elements more than 1000 deep (a news page nests a few dozen); it was not read (EXTRACT_MAX_DEPTH).): ${join(pages, 'deep.html')}`,
      );
      expect(stderr).toContain(
        `failed (Reading the page took longer than 1 s; it was given up (EXTRACT_TIME_LIMIT_MS).): ${join(pages, 'slow.html')}`,
      );
      // Before the bound and the worker, 5,000 nested divs overflowed the stack and 900 took tens of seconds.
      expect(performance.now() - started).toBeLessThan(60_000);
    } finally {
      await rm(pages, { recursive: true, force: true });
    }
  });
});
