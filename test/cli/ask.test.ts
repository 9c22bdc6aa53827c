import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOSTILE, hostileCorpus, TERMINAL_CONTROLS } from '../support/hostile-corpus.ts';
import { decodePng, inkShare } from '../support/png.ts';
import { sharedData } from '../support/shared-data.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The index cache of these runs: never the repository's own `.cache`. */
const CACHE = await mkdtemp(join(tmpdir(), 'newsdesk-ask-cache-'));

/** How the tests start the CLI: through tsx, or compiled as `npm run ask` starts it. */
const TSX = ['--import', 'tsx', 'src/cli/ask.ts'];
const COMPILED = ['src/cli/run-compiled.mjs', 'src/cli/ask.ts'];

const BBC = sharedData('bbc');

function ask(args: string[], input?: string, env: Record<string, string> = {}, command = TSX): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...command, ...args],
      { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', INDEX_CACHE_DIR: CACHE, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

const RESULT_KEYS = [
  'citation',
  'article',
  'paragraph',
  'title',
  'publisher',
  'url',
  'published',
  'quote',
  'passage',
  'score',
  'alsoReportedBy',
  'outletsDiffer',
  'reported',
];

// Each test starts the CLI (and its index worker) as a process: seconds each on a busy shared machine.
describe('npm run ask', { timeout: 90_000 }, () => {
  it('prints quotes with their citations for a person', async () => {
    const run = await ask(['who threatened the mayor of Teteghem?']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('They allegedly then showed him a gun');
    expect(run.stdout).toContain('[teteghem-mayor-threatened-with-gun#2] paragraph 2');
    expect(run.stdout).toContain("French mayor says he was threatened with a gun by 'English mafia'");
    expect(run.stderr).toMatch(
      /^ask: ready: 3 articles, \d+ passages, (index built|corpus and index from the cache), in [\d.]+ s$/m,
    );
  });

  it('uses the persisted index: the first call on a corpus builds and saves it, the next restores it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsdesk-ask-'));
    const cache = join(dir, 'cache');
    const file = join(dir, 'wire.jsonl');
    await writeFile(
      file,
      '{"id": "w1", "title": "Cocoa review", "text": "Cocoa prices rose to 340 cruzados."}\n',
    );
    const first = await ask(['--corpus', file, 'cocoa prices'], undefined, { INDEX_CACHE_DIR: cache });
    expect(first.stderr).toContain('ask: ready: 1 articles, 1 passages, index built');
    expect(await readdir(cache)).toHaveLength(1);
    const second = await ask(['--corpus', file, 'cocoa prices'], undefined, { INDEX_CACHE_DIR: cache });
    expect(second.stderr).toContain('ask: ready: 1 articles, 1 passages, corpus and index from the cache');
    expect(second.stdout).toBe(first.stdout);
    // A changed file is read again, whatever its size and time: the cache is keyed on its bytes.
    await writeFile(
      file,
      '{"id": "w1", "title": "Cocoa review", "text": "Cocoa prices fell to 340 cruzados."}\n',
    );
    const changed = await ask(['--corpus', file, 'cocoa prices'], undefined, { INDEX_CACHE_DIR: cache });
    expect(changed.stderr).toContain('ask: ready: 1 articles, 1 passages, index built');
    expect(changed.stdout).toContain('Cocoa prices fell');
    // Another corpus gets a file of its own; the first is kept.
    await ask(['bridge'], undefined, { INDEX_CACHE_DIR: cache });
    expect(await readdir(cache)).toHaveLength(3);
    // INDEX_CACHE_DIR= (empty) turns the cache off.
    const off = await ask(['--corpus', file, 'cocoa prices'], undefined, { INDEX_CACHE_DIR: '' });
    expect(off.stderr).toContain('index built');
  }, 120_000);

  it('answers from the files when the cached corpus text is found damaged while answering, and saves it again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsdesk-ask-damaged-'));
    const cache = join(dir, 'cache');
    const question = ['who threatened the mayor of Teteghem?'];
    const first = await ask(question, undefined, { INDEX_CACHE_DIR: cache });
    expect(first.code).toBe(0);
    const [name] = await readdir(cache);
    const file = join(cache, name!);
    const bytes = await readFile(file);
    // The snapshot's text ends the body, just before the trailer's newline: checked only as it is read.
    bytes[bytes.lastIndexOf(0x0a) - 10]! ^= 0x20;
    await writeFile(file, bytes);

    const damaged = await ask(question, undefined, { INDEX_CACHE_DIR: cache });
    expect(damaged.code).toBe(0);
    expect(damaged.stderr).toContain('corpus and index from the cache');
    expect(damaged.stderr).toMatch(
      /ask: the cache file was unusable \(.*damaged.*\); reading the corpus again/,
    );
    expect(damaged.stderr).toContain('index built');
    expect(damaged.stdout).toBe(first.stdout);
    const next = await ask(question, undefined, { INDEX_CACHE_DIR: cache });
    expect(next.stderr).toContain('corpus and index from the cache');
    expect(next.stderr).not.toContain('unusable');
    expect(next.stdout).toBe(first.stdout);
  }, 120_000);

  it('answers a real corpus (BBC) from the cache exactly as from its files, as `npm run ask` runs it', {
    tags: ['shared-data'],
    timeout: 240_000,
  }, async () => {
    const cache = await mkdtemp(join(tmpdir(), 'newsdesk-ask-bbc-'));
    const questions = [
      'who won the best actor oscar?',
      'what did the bank of england do with interest rates',
      'how much did yukos owe in back taxes?',
      'mobile phone sales in 2004',
      // Words no BBC article holds: "no coverage" (a question sharing a word, "moon", is closest coverage).
      'zorbing quokkas xylophone',
    ].join('\n');
    const args = ['--json', '--stdin', '--limit', '5', '--corpus', BBC];
    const fresh = await ask(args, questions, { INDEX_CACHE_DIR: '' });
    expect(fresh.code).toBe(0);
    const answers = fresh.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(answers.map((answer) => answer.results.length > 0)).toEqual([true, true, true, true, false]);
    const first = await ask(args, questions, { INDEX_CACHE_DIR: cache }, COMPILED);
    expect(first.stderr).toMatch(/ask: ready: 2,225 articles, [\d,]+ passages, index built/);
    const cached = await ask(args, questions, { INDEX_CACHE_DIR: cache }, COMPILED);
    expect(cached.stderr).toMatch(
      /ask: ready: 2,225 articles, [\d,]+ passages, corpus and index from the cache/,
    );
    expect(first.stdout).toBe(fresh.stdout);
    expect(cached.stdout).toBe(fresh.stdout);
  });

  it("keeps V8's compiled code of the compiled CLI for the next call, never using one made from other code", async () => {
    const compiled = join(ROOT, 'node_modules/.cache/newsdesk/ask.cjs');
    const kept = join(ROOT, 'node_modules/.cache/newsdesk/ask.v8');
    const question = ['who threatened the mayor of Teteghem?'];
    const first = await ask(question, undefined, {}, COMPILED);
    expect(first.code).toBe(0);
    const hash = createHash('sha256')
      .update(await readFile(compiled))
      .digest();
    const code = await readFile(kept);
    expect(code.subarray(0, 32)).toEqual(hash);
    // The same V8 code, said to be of other code: not used, and replaced by the code of this one.
    await writeFile(
      kept,
      Buffer.concat([createHash('sha256').update('other code').digest(), code.subarray(32)]),
    );
    const other = await ask(question, undefined, {}, COMPILED);
    expect(other.stdout).toBe(first.stdout);
    expect((await readFile(kept)).subarray(0, 32)).toEqual(hash);
    // Damaged: V8 refuses it, the command runs all the same and keeps its code again.
    await writeFile(kept, Buffer.concat([hash, Buffer.alloc(code.byteLength - 32, 7)]));
    const damaged = await ask(question, undefined, {}, COMPILED);
    expect(damaged.stdout).toBe(first.stdout);
    expect((await readFile(kept)).equals(Buffer.concat([hash, Buffer.alloc(code.byteLength - 32, 7)]))).toBe(
      false,
    );
    const next = await ask(question, undefined, {}, COMPILED);
    expect(next.stdout).toBe(first.stdout);
  });

  it('shows its progress on stderr while it reads and indexes, a line every few seconds when not on a terminal', async () => {
    const run = await ask(['--corpus', 'corpus', 'mayor'], undefined, { INDEX_CACHE_DIR: '' });
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ask: reading the corpus \d+\/3 read · \d+ s$/);
    expect(lines.at(-1)).toMatch(/^ask: ready: 3 articles/);
  });

  it('refuses a bad setting in plain words, exit code 1', async () => {
    const run = await ask(['mayor'], undefined, { INDEX_CACHE_MAX_MB: 'lots' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('INDEX_CACHE_MAX_MB must be a whole number of megabytes');
  });

  it('with --json prints one object of the documented shape, and nothing else on stdout', async () => {
    const run = await ask(['--json', '--limit', '2', 'How much do smugglers charge migrants?']);
    const answer = JSON.parse(run.stdout) as { query: string; results: Record<string, unknown>[] };
    expect(answer.query).toBe('How much do smugglers charge migrants?');
    expect(answer.results.length).toBeGreaterThan(0);
    expect(answer.results.length).toBeLessThanOrEqual(2);
    for (const result of answer.results) expect(Object.keys(result)).toEqual(RESULT_KEYS);
    expect(answer.results[0]).toMatchObject({ publisher: 'The Telegraph', url: null, published: null });
    expect(String(answer.results[0]!.quote)).toContain('€7,000');
  });

  it('says "No coverage found" when nothing answers', async () => {
    const run = await ask(['What is the capital of Australia?']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No coverage found');
    const json = await ask(['--json', 'What is the capital of Australia?']);
    expect(JSON.parse(json.stdout)).toEqual({
      query: 'What is the capital of Australia?',
      results: [],
      time: null,
      assurance: 'none',
    });
  });

  it('says how sure each reply is: an answer, closest coverage under its plain first line, "Which story?" with the --story to choose', async () => {
    const questions = [
      'Who threatened the mayor of Teteghem?',
      "What colour were the cars' windows?",
      'What did the mayor threaten?',
    ];
    const json = await ask(['--json', '--stdin'], `${questions.join('\n')}\n`);
    const [answer, closest, stories] = json.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answer).toMatchObject({ assurance: 'answer' });
    expect(answer).not.toHaveProperty('stories');
    expect(closest).toMatchObject({ assurance: 'closest' });
    expect(closest).not.toHaveProperty('stories');
    expect(stories).toMatchObject({
      assurance: 'closest',
      stories: [
        {
          article: 'teteghem-mayor-threatened-with-gun',
          title:
            "French mayor says he was threatened with a gun by 'English mafia' smuggling migrants into Britain",
          publisher: null,
          published: null,
        },
        { article: 'calais-mayor-renews-border-threat', publisher: null, published: null },
        // All three articles tell of a mayor's threat.
        { article: 'calais-mayor-threatens-to-open-borders', publisher: 'The Telegraph', published: null },
      ],
    });
    // The existing fields, in their order, then the new ones.
    expect(Object.keys(stories!)).toEqual(['query', 'results', 'time', 'assurance', 'stories']);
    for (const result of stories!.results as Record<string, unknown>[])
      expect(Object.keys(result)).toEqual(RESULT_KEYS);

    const text = await ask(['What did the mayor threaten?']);
    expect(text.stdout).toMatch(
      /^I found nothing that clearly answers this\. Closest coverage:\n1\. \(closest\) “/,
    );
    expect(text.stdout).toContain(
      'Which story? The question fits several; ask again with --story ID to answer within one:',
    );
    expect(text.stdout).toContain('  2. The Mayor of Calais has said she will renewed her threat');
    expect(text.stdout).toContain('(--story calais-mayor-renews-border-threat)');

    const within = await ask([
      '--json',
      '--story',
      'calais-mayor-renews-border-threat',
      'What did the mayor threaten?',
    ]);
    const chosen = JSON.parse(within.stdout) as { assurance: string; results: { article: string }[] };
    expect(chosen.assurance).toBe('answer');
    expect(chosen).not.toHaveProperty('stories');
    expect(new Set(chosen.results.map((result) => result.article))).toEqual(
      new Set(['calais-mayor-renews-border-threat']),
    );
    const plain = await ask(['--story', 'calais-mayor-renews-border-threat', 'What did the mayor threaten?']);
    expect(plain.stdout).toMatch(/^1\. “The Mayor of Calais/);
  });

  it('refuses a --story that is not in the corpus in plain words, exit code 1', async () => {
    const run = await ask(['--story', 'no-such-article', 'mayor']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('ask: no article "no-such-article" in the corpus');
    expect(run.stdout).toBe('');
  });

  it('with --stdin --json answers every line in order, one line each, blank and odd lines included', async () => {
    const questions = ['Dhersen', '', '🙂', 'who is Mike Hookem?', '"(AND OR'];
    const run = await ask(['--stdin', '--json'], `${questions.join('\n')}\n`);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(questions.length);
    expect(lines.map((line) => (JSON.parse(line) as { query: string }).query)).toEqual(questions);
    expect((JSON.parse(lines[3]!) as { results: { passage: string }[] }).results[0]?.passage).toContain(
      'Mike Hookem',
    );
  });

  it('refuses a bad --limit or a missing question with usage, exit code 2', async () => {
    for (const args of [
      ['--limit', '0', 'mayor'],
      ['--limit', 'ten', 'mayor'],
      ['--limit', '11', 'mayor'],
      [],
    ]) {
      const run = await ask(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('Usage: npm run ask');
    }
  });

  it('refuses an invalid corpus with every problem, exit code 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsdesk-ask-'));
    await writeFile(join(dir, 'a.md'), '---\ntitle: Fine\nurl: nope\n---\nText.\n');
    await writeFile(join(dir, 'b.md'), 'no front matter');
    const run = await ask(['--corpus', dir, 'anything']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`${join(dir, 'a.md')}:3: url must be an http(s) URL`);
    expect(run.stderr).toContain(`${join(dir, 'b.md')}:1: Markdown article must open with front matter`);
  });

  it('reads a .jsonl corpus given with --corpus', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsdesk-ask-'));
    const file = join(dir, 'wire.jsonl');
    await writeFile(
      file,
      '{"id": "w1", "title": "Cocoa review", "text": "Cocoa prices rose to 340 cruzados."}\n',
    );
    const run = await ask(['--json', '--corpus', file, 'cocoa prices']);
    expect((JSON.parse(run.stdout) as { results: { citation: string }[] }).results[0]?.citation).toBe('w1#1');
  });

  it('dates every citation: ISO 8601 in JSON, the day in text, undated articles said to be undated', async () => {
    const json = await ask([
      '--json',
      '--limit',
      '10',
      '--corpus',
      'test/fixtures/dated-corpus',
      'Gravelines dock strike',
    ]);
    const results = (JSON.parse(json.stdout) as { results: { article: string; published: string | null }[] })
      .results;
    const published = Object.fromEntries(results.map((result) => [result.article, result.published]));
    expect(published).toMatchObject({
      'wire-1987': '1987-02-26T15:01:11.79',
      'dock-strike-returns': '2015-08-01T23:30:00-05:00',
      'dock-strike-undated': null,
    });
    const text = await ask([
      '--limit',
      '10',
      '--corpus',
      'test/fixtures/dated-corpus',
      'Gravelines dock strike',
    ]);
    expect(text.stdout).toContain('— GRAVELINES DOCKERS STRIKE, publisher unknown, 1987-02-26');
    expect(text.stdout).toContain(
      '— Gravelines dock strike returns twelve years on, Harbour Gazette, 2015-08-01',
    );
    expect(text.stdout).toContain(
      '— What the Gravelines dock strike means for ferries, Channel Notes, undated',
    );
  });

  it('--since and --until keep answers to that period; a bad bound is a usage error', async () => {
    const run = await ask([
      '--json',
      '--limit',
      '10',
      '--corpus',
      'test/fixtures/dated-corpus',
      '--until',
      '1987-02-26',
      'Gravelines dock strike',
    ]);
    const { results } = JSON.parse(run.stdout) as { results: { article: string }[] };
    expect(new Set(results.map((result) => result.article))).toEqual(new Set(['wire-1987']));
    const bad = await ask(['--since', '2015-8', 'strike']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "--since must be a year (2003), a month (2015-08) or a date (2015-08-01); got '2015-8'",
    );
  });

  it("--timeline lists the topic's coverage oldest first, the first report marked, undated apart; --json too", async () => {
    const corpus = ['--corpus', 'test/fixtures/dated-corpus'];
    const text = await ask([...corpus, '--timeline', 'Gravelines dock strike']);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe('Timeline of “Gravelines dock strike”, oldest first:');
    expect(lines[1]).toBe(
      '1987-02-26  publisher unknown — “Dock workers at the French port of Gravelines went on strike over pay, port officials said.” [wire-1987#1]  ← first report',
    );
    expect(lines.slice(2, 7).map((line) => line.slice(0, 10))).toEqual([
      '2003-03-10',
      '2003-12-31',
      '2015-08-01',
      '2015-08-15',
      '2015-08-31',
    ]);
    expect(lines.slice(7, 10)).toEqual([
      '',
      'Undated (when these appeared is not known):',
      'Channel Notes — “Ferry passengers should expect delays while the dock strike at Gravelines continues, operators warned.” [dock-strike-undated#1]',
    ]);
    const json = await ask([...corpus, '--json', '--timeline', '--since', '2015', 'Gravelines dock strike']);
    const parsed = JSON.parse(json.stdout) as {
      dated: { article: string; published: string; firstReport: boolean }[];
      undated: unknown[];
    };
    expect(parsed.dated.map((entry) => [entry.article, entry.firstReport])).toEqual([
      ['dock-strike-returns', true],
      ['wire-2015', false],
      ['dock-strike-ends', false],
    ]);
    expect(parsed.dated[0]?.published).toBe('2015-08-01T23:30:00-05:00');
    expect(parsed.undated).toEqual([]);
  });

  it('--timeline --chart FILE writes the chart beside the text and says where; nothing dated, no file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'newsdesk-ask-chart-'));
    const file = join(dir, 'out.png');
    const corpus = ['--corpus', 'test/fixtures/dated-corpus'];
    const run = await ask(
      [...corpus, '--timeline', '--chart', file, 'Gravelines dock strike'],
      undefined,
      {},
      COMPILED,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Timeline of “Gravelines dock strike”, oldest first:\n/);
    expect(run.stdout.endsWith(`chart: ${file}\n`)).toBe(true);
    const png = await decodePng(await readFile(file));
    expect([png.width, png.height]).toEqual([800, 400]);
    expect(inkShare(png)).toBeGreaterThan(0.05);

    const none = join(dir, 'none.png');
    const undated = await ask([...corpus, '--timeline', '--chart', none, 'ferries']);
    expect(undated.code).toBe(0);
    expect(undated.stdout).toContain('No chart: no article listed is dated, so there is nothing to draw.');
    expect(await readdir(dir)).toEqual(['out.png']);

    const misused = await ask(['--chart', file, 'ferries']);
    expect(misused.code).toBe(2);
    expect(misused.stderr).toContain('--chart draws a timeline: give --timeline too');
  });

  it('never writes terminal escapes or controls from the corpus or the question to the terminal', async () => {
    const dir = await hostileCorpus();
    const text = await ask(['--corpus', dir, `who rescued the kayakers ${HOSTILE}?`]);
    expect(text.stdout).toContain('rescued four kayakers');
    expect(text.stdout).not.toMatch(TERMINAL_CONTROLS);
    // Controls alone, without the words the article holds too ("owned", "2J31m"): a question about nothing here.
    const bare = '\u001b\u0007\u009b\u202e';
    const missing = await ask(['--corpus', dir, '--stdin'], `volcano eruption ${bare}\n`);
    expect(missing.stdout).toContain('No coverage found');
    expect(missing.stdout).not.toMatch(TERMINAL_CONTROLS);
    // JSON keeps the text verbatim for programs, written so that a terminal shows it inert.
    const json = await ask(['--json', '--corpus', dir, `who rescued the kayakers ${HOSTILE}?`]);
    expect(json.stdout).not.toMatch(TERMINAL_CONTROLS);
    const parsed = JSON.parse(json.stdout) as { query: string; results: { title: string }[] };
    expect(parsed.query).toContain(HOSTILE);
    expect(parsed.results[0]?.title).toContain(HOSTILE);
  });
});
