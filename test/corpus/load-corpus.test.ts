import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CorpusError, type LoadOptions, loadCorpus, parseArticleFile } from '../../src/corpus/load-corpus.ts';

const BUNDLED = new URL('../../corpus/', import.meta.url).pathname;

async function folderWith(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'newsdesk-corpus-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

async function problemsOf(path: string, options?: LoadOptions): Promise<string[]> {
  try {
    await loadCorpus(path, options);
  } catch (error) {
    if (error instanceof CorpusError) return error.message.split('\n').slice(1);
    throw error;
  }
  throw new Error('the corpus was accepted');
}

const ok = '---\ntitle: A fine article\n---\nIt has one paragraph.\n';

describe('loadCorpus', () => {
  it('loads the bundled seed articles with only the metadata their text supports', async () => {
    const corpus = await loadCorpus(BUNDLED);
    expect(corpus.articles.map((a) => [a.id, a.publisher, a.url, a.published])).toEqual([
      ['calais-mayor-renews-border-threat', null, null, null],
      ['calais-mayor-threatens-to-open-borders', 'The Telegraph', null, null],
      ['teteghem-mayor-threatened-with-gun', null, null, null],
    ]);
    expect(corpus.version).toMatch(/^[0-9a-f]{12}$/);
  });

  it('gives equal corpora equal versions and changed ones new versions', async () => {
    const a = await loadCorpus(await folderWith({ 'a.md': ok }));
    const b = await loadCorpus(await folderWith({ 'a.md': ok }));
    const c = await loadCorpus(await folderWith({ 'a.md': ok.replace('one paragraph', 'a paragraph') }));
    expect(a.version).toBe(b.version);
    expect(c.version).not.toBe(a.version);
  });

  it('refuses the whole corpus listing every problem as file:line', async () => {
    const dir = await folderWith({
      'good.md': ok,
      'no-title.md': '---\npublisher: Somebody\n---\nText.\n',
      'bad-fields.md': '---\ntitle: Fine\nurl: not a url\npublished: 2015-13-45\ntitel: typo\n---\nText.\n',
      'unclosed.md': '---\ntitle: Never closed\nText.\n',
      'empty.txt': '',
      'latin1.txt': new Uint8Array([0x54, 0xe9, 0x74, 0x65, 0x67, 0x68, 0x65, 0x6d, 0x0a, 0x41, 0x2e]),
      'records.jsonl':
        '{"id": "r1", "title": "Ok", "text": "Fine."}\nnot json\n{"id": "r1", "title": "Twice", "text": "Again."}\n',
    });
    const problems = await problemsOf(dir);
    expect(problems).toEqual(
      expect.arrayContaining([
        `${join(dir, 'no-title.md')}:1: title is required`,
        `${join(dir, 'bad-fields.md')}:3: url must be an http(s) URL`,
        `${join(dir, 'bad-fields.md')}:4: published is not a real date`,
        `${join(dir, 'bad-fields.md')}:5: unknown field "titel"`,
        `${join(dir, 'unclosed.md')}:1: front matter opened here is not closed by a \`---\` line`,
        `${join(dir, 'empty.txt')}:1: file is empty`,
        `${join(dir, 'latin1.txt')}:1: file is not valid UTF-8 text`,
        `${join(dir, 'records.jsonl')}:2: not valid JSON`,
      ]),
    );
    expect(problems).toHaveLength(8);
  });

  it('refuses an article id used twice, naming both places', async () => {
    const dir = await folderWith({
      'a.md': ok,
      'a.txt': 'Headline\nBody.\n',
      'wire.jsonl':
        '{"id": "r1", "title": "Ok", "text": "Fine."}\n{"id": "r1", "title": "Twice", "text": "Again."}\n',
    });
    expect(await problemsOf(dir)).toEqual([
      `${join(dir, 'a.txt')}:1: article id "a" is also used by ${join(dir, 'a.md')}`,
      `${join(dir, 'wire.jsonl')}:2: article id "r1" is also used by ${join(dir, 'wire.jsonl')}:1`,
    ]);
  });

  it('ignores hidden files such as an interrupted write, and files that are not articles', async () => {
    const dir = await folderWith({ 'a.md': ok, '.a-new.md.tmp': '---\ntitle: half', 'notes.json': '{}' });
    const corpus = await loadCorpus(dir);
    expect(corpus.articles.map((a) => a.id)).toEqual(['a']);
  });

  it('lists what it did not read: other kinds of file and subfolders (not their contents), not hidden files', async () => {
    const dir = await folderWith({ 'a.md': ok, 'notes.doc': 'x', '.a-new.md.tmp': 'x' });
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub', 'nested.md'), ok);
    const corpus = await loadCorpus(dir);
    expect(corpus.articles.map((a) => a.id)).toEqual(['a']);
    expect(corpus.skipped).toEqual(['notes.doc', 'sub/']);
    expect(corpus.version).toBe((await loadCorpus(await folderWith({ 'a.md': ok }))).version);
  });

  it('reports a malformed date once, and an empty Markdown file as empty', async () => {
    const dir = await folderWith({
      'date.md': '---\ntitle: Fine\npublished: 14/05/2024\n---\nText.\n',
      'empty.md': '',
      'blank.md': '\n  \n',
    });
    expect((await problemsOf(dir)).sort()).toEqual([
      `${join(dir, 'blank.md')}:1: file is empty`,
      `${join(dir, 'date.md')}:3: published must be a date such as 2015-08-01 (ISO 8601) or 26-FEB-1987 15:01:11.79`,
      `${join(dir, 'empty.md')}:1: file is empty`,
    ]);
  });

  it('reads a JSON Lines file of {id, title, text} records, as in the shared data', async () => {
    const dir = await folderWith({
      'wire.jsonl':
        '{"id": 7, "title": "Cocoa review", "text": "Showers continued.\\n\\nPrices rose.", "topics": ["cocoa"]}\n' +
        '{"id": "no-title", "title": null, "text": "Headline only in text\\nThen the body."}\n' +
        '{"id": "blank", "title": "", "text": ""}\n' +
        '{"id": "a2"}\n' +
        '{"id": "headline-only", "title": "Markets closed"}\n',
    });
    const corpus = await loadCorpus(join(dir, 'wire.jsonl'));
    // As docs/operations.md says: a record without a title takes the first line of its text; one with neither
    // title nor text is skipped; one with a title and no text is a headline without passages.
    expect(corpus.articles.map((a) => [a.id, a.title, a.passages.map((p) => p.text)])).toEqual([
      ['7', 'Cocoa review', ['Showers continued.', 'Prices rose.']],
      ['no-title', 'Headline only in text', ['Headline only in text', 'Then the body.']],
      ['headline-only', 'Markets closed', []],
    ]);
    expect(corpus.articles[0]!.source).toBe(`${join(dir, 'wire.jsonl')}:1`);
  });

  it('lists a FIFO, a socket and a folder named like an article as problems, without hanging on them', async () => {
    const dir = await folderWith({ 'a.md': ok });
    execFileSync('mkfifo', [join(dir, 'pipe.md')]);
    await mkdir(join(dir, 'folder.md'));
    const socket = createServer();
    await new Promise<void>((resolve) => socket.listen(join(dir, 'socket.txt'), resolve));
    try {
      expect((await problemsOf(dir)).sort()).toEqual([
        `${join(dir, 'folder.md')}:1: is a folder, not an article file`,
        `${join(dir, 'pipe.md')}:1: is not a regular file (a pipe, socket or device): not read`,
        `${join(dir, 'socket.txt')}:1: is not a regular file (a pipe, socket or device): not read`,
      ]);
      // A FIFO given as the corpus itself is refused the same way.
      expect(await problemsOf(join(dir, 'pipe.md'))).toEqual([
        `${join(dir, 'pipe.md')}:1: is not a regular file (a pipe, socket or device): not read`,
      ]);
    } finally {
      socket.close();
    }
  });

  it('lists a file that takes longer than the time limit to read as a problem', async () => {
    // A hung network mount cannot be made here; a file far larger than the limit lets it read is.
    // The limit is 30 s in service and 1 ms in this test, which 64 MB read in 128 steps cannot meet
    // (nor, on a busy machine, might a small file: this folder holds only the large one).
    const dir = await folderWith({});
    const slow = await open(join(dir, 'slow.txt'), 'w');
    await slow.truncate(64 * 1024 * 1024);
    await slow.close();
    expect(await problemsOf(dir, { readTimeLimitMs: 1 })).toEqual([
      `${join(dir, 'slow.txt')}:1: could not be read within 0.001 s`,
    ]);
  });

  it('refuses a link to a file outside the corpus folder, and follows one that stays inside', async () => {
    const outside = await folderWith({
      'secret.txt': 'Root password list\nroot:x:0:0:root:/root:/bin/bash\n',
    });
    const dir = await folderWith({ 'a.md': ok });
    await symlink(join(outside, 'secret.txt'), join(dir, 'passwd.txt'));
    expect(await problemsOf(dir)).toEqual([
      `${join(dir, 'passwd.txt')}:1: is a link to a file outside the corpus folder: not read`,
    ]);
    await rm(join(dir, 'passwd.txt'));
    await symlink('../', join(dir, 'up.md'));
    await symlink('a.md', join(dir, 'same.md'));
    await symlink(join(dir, 'missing.md'), join(dir, 'dangling.md'));
    expect((await problemsOf(dir)).sort()).toEqual([
      `${join(dir, 'dangling.md')}:1: is a link to nothing`,
      `${join(dir, 'up.md')}:1: is a link to a file outside the corpus folder: not read`,
    ]);
    await rm(join(dir, 'up.md'));
    await rm(join(dir, 'dangling.md'));
    expect((await loadCorpus(dir)).articles.map((a) => a.id)).toEqual(['a', 'same']);
  });

  it('reports every unknown front-matter field on its line, __proto__ and constructor alike', async () => {
    const dir = await folderWith({
      'a.md': '---\ntitle: Fine\n__proto__: x\nconstructor: y\ntitel: typo\n---\nText.\n',
    });
    expect(await problemsOf(dir)).toEqual([
      `${join(dir, 'a.md')}:3: unknown field "__proto__"`,
      `${join(dir, 'a.md')}:4: unknown field "constructor"`,
      `${join(dir, 'a.md')}:5: unknown field "titel"`,
    ]);
  });

  it('says so when the path does not exist or holds no articles', async () => {
    expect(await problemsOf('/nonexistent/corpus')).toEqual([
      '/nonexistent/corpus:1: no such file or folder',
    ]);
    const empty = await folderWith({});
    expect(await problemsOf(empty)).toEqual([`${empty}:1: no articles found`]);
  });
});

describe('parseArticleFile', () => {
  it('reads front matter with quotes and comments', () => {
    const article = parseArticleFile(
      'story.md',
      '---\n# where it came from\ntitle: "Calais: the \\"Jungle\\""\npublisher: \'The Telegraph\'\npublished: 2015-08-01\nlanguage: en-GB\n---\nBody text.\n',
    );
    expect(article).toMatchObject({
      id: 'story',
      title: 'Calais: the "Jungle"',
      publisher: 'The Telegraph',
      published: '2015-08-01',
      language: 'en-GB',
      author: null,
    });
  });

  it('takes the first line of a .txt file as its headline', async () => {
    const text = await readFile(
      new URL('../fixtures/seed-articles/000_907dd06503b80552.txt', import.meta.url),
      'utf8',
    );
    const article = parseArticleFile('000_907dd06503b80552.txt', text);
    expect(article.title).toBe(
      "French mayor says he was threatened with a gun by 'English mafia' smuggling migrants into Britain",
    );
    expect(article.passages[0]!.text).toMatch(/^British traffickers who were smuggling migrants/);
  });

  it('refuses a Markdown file without front matter and an article without text', () => {
    expect(() => parseArticleFile('plain.md', 'Just text')).toThrow(/must open with front matter/);
    expect(() => parseArticleFile('bare.md', '---\ntitle: Only a title\n---\n\n')).toThrow(
      /bare.md:4: article has no paragraphs of text/,
    );
    expect(() => parseArticleFile('bad name!.md', ok)).toThrow(/id may contain only/);
  });
});
