import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Community } from '../../src/community/community.ts';
import { HOSTILE, TERMINAL_CONTROLS } from '../support/hostile-corpus.ts';
import { type LocalWebServer, serve, startLocalWebServer } from '../support/local-web-server.ts';

const run = promisify(execFile);

/** A title change, a screen clear, an 8-bit CSI, a right-to-left override, and an OSC 8 link. */
const ATTACK = `${HOSTILE}\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\`;

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** No escape, control or override a terminal would act on, and no fragment of one left as text. */
function expectInert(text: string): void {
  expect(text).not.toMatch(TERMINAL_CONTROLS);
  expect(text).not.toContain(']0;owned');
  expect(text).not.toContain(']8;;');
}

describe('GIVEN a member whose question without coverage carries terminal escapes', () => {
  let data: string;

  beforeAll(async () => {
    data = await mkdtemp(join(tmpdir(), 'newsdesk-gaps-escapes-'));
    const community = Community.open({ file: Community.fileFor({ DATA_DIR: data })! });
    community.records.recordUnanswered({
      guildId: 'g',
      channelId: 'c',
      question: `who owns the ${ATTACK} lighthouse?`,
      askedAt: new Date(),
      corpusVersion: 'v1',
    });
    community.close();
  });
  afterAll(() => rm(data, { recursive: true, force: true }));

  it('WHEN npm run gaps prints it THEN it shows as text only, and --json keeps it as an inert JSON string', {
    timeout: 120_000,
  }, async () => {
    const text = await cli(['src/cli/gaps.ts'], { DATA_DIR: data });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('"who owns the click lighthouse?"');
    expectInert(text.stdout);

    const json = await cli(['src/cli/gaps.ts', '--json'], { DATA_DIR: data });
    expect(json.stdout).not.toMatch(TERMINAL_CONTROLS);
    // The JSON reader still gets what the member typed.
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain(
      JSON.stringify(`who owns the ${ATTACK} lighthouse?`).slice(1, -1),
    );
  });
});

describe('GIVEN npm run import and sites whose status text and page title carry terminal escapes', () => {
  let raw: Server;
  let rawUrl: string;
  let site: LocalWebServer;
  let folder: string;

  beforeAll(async () => {
    // A server that writes its status line itself: Node's own would not send these bytes.
    raw = createServer((socket) => {
      socket.once('data', () => {
        socket.end(
          `HTTP/1.1 404 Not ${ATTACK}Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`,
          'latin1',
        );
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const address = raw.address();
    rawUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/gone`;
    const page = (await readFile('test/fixtures/web/harbour-works.html', 'utf8')).replace(
      /<title>([^<]*)<\/title>/,
      `<title>Harbour ${ATTACK} works delayed</title>`,
    );
    site = await startLocalWebServer({ '/harbour': serve(page, 'text/html; charset=utf-8') });
    folder = await mkdtemp(join(tmpdir(), 'newsdesk-import-escapes-'));
    await cp('corpus', folder, { recursive: true });
  });
  afterAll(async () => {
    raw.close();
    await site?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("WHEN it prints a server's HTTP status text THEN the escapes are gone", {
    timeout: 60_000,
  }, async () => {
    const { stderr } = await cli(['src/import/import-cli.ts', rawUrl], {
      CORPUS_PATH: folder,
      FETCH_ALLOW_PRIVATE: 'true',
    });
    // (The override, not a Latin-1 character, went over the wire as its low byte: a full stop.)
    expect(stderr).toMatch(/failed \(The site answered HTTP 404 \(Not \.?clickFound\)\.\)/);
    expectInert(stderr);
  });

  it('WHEN it imports a page whose title carries them THEN the title is written to the .md file without them', {
    timeout: 60_000,
  }, async () => {
    const { code, stderr } = await cli(['src/import/import-cli.ts', site.url('/harbour')], {
      CORPUS_PATH: folder,
      FETCH_ALLOW_PRIVATE: 'true',
    });
    expect(code).toBe(0);
    expectInert(stderr);
    const file = /added ([\w.-]+\.md)/.exec(stderr)?.[1];
    expect(file).toBeDefined();
    const stored = await readFile(join(folder, file!), 'utf8');
    expect(stored).toMatch(/^title: "Harbour click works delayed"$/m);
    expectInert(stored);
  });
});
