import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../commands/index.ts';
import { EnvSchema, loadConfig } from '../src/config.ts';
import { parseArticleFile } from '../src/corpus/load-corpus.ts';

// Every example of the README and docs/ is checked against what the product really does: `console`
// blocks are run and their output compared; the other kinds of block are checked for what they claim.

const ROOT = path.resolve(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const text = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');

interface Block {
  page: string;
  kind: string;
  body: string;
}

/** The fenced blocks of a page, those indented in a list item included (indent removed). */
function blocksOf(page: string): Block[] {
  const blocks: Block[] = [];
  const lines = text(page).split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^( *)```(\w*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', kind = ''] = open;
    const body: string[] = [];
    for (i += 1; i < lines.length && lines[i] !== `${indent}\`\`\``; i += 1)
      body.push(lines[i]!.slice(indent.length));
    blocks.push({ page, kind, body: body.join('\n') });
  }
  return blocks;
}

const BLOCKS = PAGES.flatMap(blocksOf);
const blocksOfKind = (kind: string) => BLOCKS.filter((block) => block.kind === kind);

/** Each `$ command` of a console block with the output shown below it. */
const EXAMPLES = blocksOfKind('console').flatMap(({ page, body }) =>
  body
    .split(/^\$ /m)
    .slice(1)
    .map((chunk) => {
      const [command = '', ...output] = chunk.split('\n');
      return { page, command, output: output.join('\n').trimEnd() };
    }),
);

/** The output shown, when it is one JSON document. */
function jsonOf(output: string): unknown {
  try {
    return JSON.parse(output) as unknown;
  } catch {
    return undefined;
  }
}

/** `shown` matches `printed` line for line, a `…` line standing for any lines left out. */
function matches(shown: string[], printed: string[]): boolean {
  let at = 0;
  let skipping = false;
  for (const line of shown) {
    if (line === '…') {
      skipping = true;
      continue;
    }
    while (skipping && at < printed.length && printed[at] !== line) at += 1;
    if (printed[at] !== line) return false;
    at += 1;
    skipping = false;
  }
  return skipping || at === printed.length;
}

describe('the examples of the README and docs/, run', () => {
  let scratch: string;
  let runs = 0;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'newsdesk-readme-'));
  });
  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  /** As a new user runs it: from the repository, in a shell, with no settings and a fresh cache and database. */
  const run = (command: string) => {
    runs += 1;
    return new Promise<string>((resolve, reject) => {
      execFile(
        'bash',
        ['-c', command],
        {
          cwd: ROOT,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? scratch,
            NO_COLOR: '1',
            // Empty values are "not set" to the bot, and win over a developer's .env.
            DISCORD_TOKEN: '',
            DISCORD_APPLICATION_ID: '',
            DISCORD_GUILD_ID: '',
            CORPUS_PATH: '',
            INDEX_CACHE_DIR: path.join(scratch, `cache-${runs}`),
            DATA_DIR: path.join(scratch, `data-${runs}`),
          },
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, stdout) => (error && error.code === undefined ? reject(error) : resolve(stdout)),
      );
    });
  };

  it('there are examples on every page that has commands to show', () => {
    expect(new Set(EXAMPLES.map((example) => example.page))).toEqual(
      new Set(['README.md', 'docs/follow-ups.md', 'docs/operations.md', 'docs/quality.md']),
    );
  });

  it.each(EXAMPLES.map((example) => [`${example.page}: $ ${example.command}`, example] as const))(
    '%s',
    async (_name, { command, output }) => {
      const printed = (await run(command)).trimEnd();
      const json = jsonOf(output);
      if (json !== undefined) {
        // JSON is shown indented; the command prints one object per line.
        expect(JSON.parse(printed)).toEqual(json);
        return;
      }
      const lines = printed.split('\n').map((line) => line.trimEnd());
      if (!matches(output.split('\n'), lines)) expect(printed).toBe(output);
    },
    180_000,
  );
});

describe('the other examples of the README and docs/', () => {
  const scripts = JSON.parse(text('package.json')).scripts as Record<string, string>;

  it('name only npm scripts that exist', () => {
    const named = BLOCKS.filter((block) => ['sh', 'console', ''].includes(block.kind)).flatMap((block) =>
      [...block.body.matchAll(/\bnpm run (?:--silent )?([\w:-]+)/g)].map((match) => match[1]!),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !(name in scripts))).toEqual([]);
  });

  it('the README front matter example is an article the corpus loader reads, every field known', () => {
    const [example] = blocksOfKind('markdown').filter((block) => block.page === 'README.md');
    const article = parseArticleFile('example.md', example!.body);
    expect(article).toMatchObject({
      title: "Calais mayor threats to open France's borders",
      publisher: 'The Telegraph',
      url: 'https://www.example.com/story',
      published: '2015-08-01',
      author: 'Jane Doe',
      language: 'en',
    });
    expect(article.passages.map((passage) => passage.text)).toEqual([
      'First paragraph.',
      'Second paragraph.',
    ]);
  });

  it('the invite link asks for the scopes and exactly the permissions the README names', () => {
    const [link] = blocksOfKind('text').filter((block) => block.body.includes('oauth2/authorize'));
    const url = new URL(link!.body.trim());
    expect(url.searchParams.get('scope')).toBe('bot applications.commands');
    const {
      ViewChannel,
      SendMessages,
      EmbedLinks,
      ReadMessageHistory,
      CreatePublicThreads,
      SendMessagesInThreads,
    } = PermissionFlagsBits;
    expect(url.searchParams.get('permissions')).toBe(
      String(
        ViewChannel |
          SendMessages |
          EmbedLinks |
          ReadMessageHistory |
          CreatePublicThreads |
          SendMessagesInThreads,
      ),
    );
    expect(text('README.md').replace(/\s+/g, ' ')).toContain(
      `The permissions, ${url.searchParams.get('permissions')}, are View Channels, Send Messages, Embed Links, Read Message History, Create Public Threads and Send Messages in Threads`,
    );
  });

  it("the README's table of commands names each command, and its subcommands and options as they are", () => {
    interface Node {
      name: string;
      type?: number;
      required?: boolean;
      options?: Node[];
    }
    const definitions = commands.map((command) => command.data.toJSON() as Node);
    const table = text('README.md').split('\n## Commands\n')[1]!.split('\n\n')[0]!;
    const rows = table.split('\n').slice(2);
    // A command is every slash command and message menu; each appears in the table.
    const named = new Set<string>();
    for (const row of rows) {
      const [shown = ''] = row.split(' | ');
      for (const [, menu = ''] of shown.matchAll(/message menu "([^"]+)"/g)) named.add(menu);
      for (const [, span = ''] of shown.matchAll(/`\/([^`]+)`/g)) {
        const [name = '', ...words] = span.replace(/\\\|/g, '|').split(' ');
        named.add(name);
        let node = definitions.find((definition) => definition.name === name);
        expect(node, `/${name}`).toBeDefined();
        // Subcommands and groups (types 1 and 2) first: one names the way on, several end the span.
        while (node?.options?.some((option) => option.type === 1 || option.type === 2) && words.length > 0) {
          const ways = words.shift()!.split('|');
          const found = ways.map((way) => node?.options?.find((option) => option.name === way));
          expect(found.every(Boolean), `/${span}: ${ways.join(', ')}`).toBe(true);
          node = ways.length === 1 ? found[0] : undefined;
          if (!node) expect(words, `/${span}`).toEqual([]);
        }
        if (!node || words.length === 0) continue;
        // Options: bare when required, in brackets when not, all of them, in order.
        const listed = words.flatMap((word) => {
          const optional = /^\[.*\]$/.test(word);
          const names = word.replace(/^\[|\]$/g, '').split('|');
          return names.map((option) => ({ option, required: !optional && names.length === 1 }));
        });
        const options = (node.options ?? []).map((option) => ({
          option: option.name,
          required: !!option.required,
        }));
        const alternatives = new Set(
          words.filter((word) => word.includes('|')).flatMap((word) => word.split('|')),
        );
        // `file|url`: one of the two, each optional to Discord.
        const loose = (entry: { option: string; required: boolean }) =>
          alternatives.has(entry.option) ? { ...entry, required: false } : entry;
        expect(listed.map(loose), `/${span}`).toEqual(options.map(loose));
      }
    }
    expect([...named].sort()).toEqual(definitions.map((definition) => definition.name).sort());
  });

  /** The rows of a settings table: its `VARIABLE` and the default written beside it. */
  const settingsRows = (page: string, heading: string) => {
    const section = text(page).split(`\n## ${heading}\n`)[1]?.split('\n## ')[0] ?? '';
    return [...section.matchAll(/^\| `([A-Z_]+)` \| ([^|]+) \|/gm)].map(([, name = '', shown = '']) => ({
      name,
      shown: shown.trim(),
    }));
  };
  /** A default as the tables write it: `unset`, `empty`, or the value in backticks. */
  const defaultShown = (value: unknown) =>
    value === undefined
      ? 'unset'
      : (Array.isArray(value) ? value.length === 0 : value === '')
        ? 'empty'
        : `\`${String(value)}\``;

  it('the settings tables name real settings with their real defaults; docs/operations.md lists them all', () => {
    const defaults = loadConfig({}) as Record<string, unknown>;
    const readme = settingsRows('README.md', 'Main settings');
    const operations = settingsRows('docs/operations.md', 'Configuration');
    expect(readme.length).toBeGreaterThan(5);
    for (const { name, shown } of [...readme, ...operations])
      expect({ name, shown }).toEqual({ name, shown: defaultShown(defaults[name]) });
    expect(operations.map((row) => row.name).sort()).toEqual(Object.keys(EnvSchema.shape).sort());
  });

  it('the systemd unit starts what npm start starts', () => {
    const [unit] = blocksOfKind('ini');
    const execStart = /^ExecStart=(\S+) (.*)$/m.exec(unit!.body);
    expect(execStart?.[1]).toMatch(/\/node$/);
    expect(`node ${execStart?.[2]}`).toBe(scripts.start);
  });

  // Tagged systemd: skipped where systemd-analyze is missing, except in CI, which installs it.
  it('the systemd unit passes systemd-analyze verify', { tags: ['systemd'] }, async () => {
    const [unit] = blocksOfKind('ini');
    const dir = await mkdtemp(path.join(tmpdir(), 'newsdesk-unit-'));
    try {
      await writeFile(path.join(dir, 'newsdesk.service'), unit!.body);
      const verified = await new Promise<{ code: number | string; stderr: string }>((resolve) =>
        execFile('systemd-analyze', ['verify', path.join(dir, 'newsdesk.service')], (error, _out, stderr) =>
          // A missing systemd-analyze is error.code 'ENOENT': a failure too, not a pass.
          resolve({ code: error ? (error.code ?? 1) : 0, stderr }),
        ),
      );
      expect(verified).toEqual({ code: 0, stderr: '' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A heading's anchor as GitHub makes it. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const headingsOf = (page: string) =>
  [
    ...text(page)
      .replace(/^```[\s\S]*?^```/gm, '')
      .matchAll(/^(#{1,6}) (.*)$/gm),
  ].map((match) => ({
    level: match[1]!.length,
    anchor: anchorOf(match[2]!),
  }));

describe('the README and docs/ as pages', () => {
  it('the README is read in five minutes: at most 300 lines', () => {
    expect(text('README.md').split('\n').length).toBeLessThanOrEqual(300);
  });

  it.each(PAGES)('every link of %s leads to a file and, with #, to one of its headings', (page) => {
    const broken = [...text(page).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^(https?|mailto):/.test(target))
      .filter((target) => {
        const [file = '', anchor] = target.split('#');
        const resolved = file === '' ? page : path.join(path.dirname(page), file);
        if (!existsSync(path.join(ROOT, resolved))) return true;
        return anchor !== undefined && !headingsOf(resolved).some((heading) => heading.anchor === anchor);
      });
    expect(broken).toEqual([]);
  });

  it.each(PAGES.filter((page) => page.startsWith('docs/')))(
    '%s opens with a table of its sections',
    (page) => {
      const sections = headingsOf(page)
        .filter((heading) => heading.level === 2)
        .map((h) => h.anchor);
      const listed = [...text(page).matchAll(/^- \[[^\]]+\]\(#([^)]+)\)$/gm)].map((match) => match[1]);
      expect(listed).toEqual(sections);
    },
  );
});
