import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { APIInteraction } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Bootstrapped, bootstrap } from '../../../src/bootstrap.ts';
import { loadConfig } from '../../../src/config.ts';
import { memoryLogger } from '../../../src/logging/logger.ts';
import { createInteractionServer } from '../../../src/transports/http/server.ts';
import { ids } from '../../support/stand-in-discord/fixtures.ts';
import { chatInput } from '../../support/stand-in-discord/interactions.ts';
import { StandInDiscord } from '../../support/stand-in-discord/server.ts';
import { copyOfBundledCorpus } from '../../support/temp-corpus.ts';
import { close, listen, send } from './support/http-client.ts';
import { Signer } from './support/signer.ts';

const reader = { userId: '500000000000000001', roles: [ids.memberRole] };

/** Another process holding the file's write lock (`BEGIN EXCLUSIVE`) until it is killed. */
function lockFromAnotherProcess(file: string): Promise<ChildProcess> {
  const locker = spawn(
    process.execPath,
    [
      '-e',
      `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(file)}); db.exec('BEGIN EXCLUSIVE');
       process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve) => locker.stdout?.once('data', () => resolve(locker)));
}

// Issue 31: with the SQLite file locked by another process, an answered /ask took 10 s and /healthz
// 10 s (two synchronous writes, each waiting out a 5 s busy timeout on the serving thread), and both
// records were then dropped. Answering must not wait on recording, and nothing recorded may be lost.
describe('GIVEN the HTTP endpoint whose community database another process has locked', () => {
  const signer = new Signer();
  let discord: StandInDiscord;
  let app: Bootstrapped;
  let base: string;
  let file: string;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    discord = await StandInDiscord.start();
    const copy = await copyOfBundledCorpus();
    const config = loadConfig({
      DISCORD_PUBLIC_KEY: signer.publicKeyHex,
      DISCORD_TOKEN: discord.token,
      DISCORD_API_BASE: discord.apiBase,
      CORPUS_PATH: copy.corpus,
      INDEX_CACHE_DIR: '',
      DATA_DIR: path.join(copy.root, 'data'),
    });
    file = path.join(copy.root, 'data', 'newsdesk.sqlite');
    app = await bootstrap({ config, logger: memoryLogger() });
    const server = createInteractionServer({
      publicKey: signer.publicKeyHex,
      library: app.library,
      apiBase: config.DISCORD_API_BASE,
      context: app.ctx,
      health: app.health,
    });
    base = await listen(server);
    stop = async () => {
      await close(server);
      await app.records.stop();
      app.library.engine.close();
      await discord.close();
      await copy.cleanup();
    };
  });
  afterAll(() => stop?.());

  const ask = async (raw: APIInteraction) => {
    const body = JSON.stringify(raw);
    return send(`${base}/interactions`, { headers: signer.headersFor(body), body });
  };
  const health = async () =>
    JSON.parse((await send(`${base}/healthz`, { method: 'GET' })).text) as {
      status: string;
      dependencies: { name: string; kind: string; status: string; pending?: number }[];
    };

  it('/ask is answered and /healthz says the database is degraded while locked; once released, every record lands', async () => {
    const locker = await lockFromAnotherProcess(file);
    let released = false;
    try {
      const raw = chatInput(
        'ask',
        { question: 'How much did the migrant spend traveling from Syria?' },
        reader,
      );
      const reply = await ask(raw);
      expect(reply.status).toBe(200);
      expect(reply.text).toMatch(/^\{"type":4/);
      expect(reply.text).toContain('$18,000');
      // Discord creates the message from the response; the endpoint reads its id back to follow it.
      discord.answeredOverHttp(raw, JSON.parse(reply.text));
      const unanswered = await ask(
        chatInput('ask', { question: 'What is the boiling point of mercury?' }, reader),
      );
      expect(unanswered.text).toMatch(/No coverage found/);
      // Answered while the other process still holds the lock: the replies did not wait for it.
      expect(locker.exitCode).toBeNull();
      const during = await health();
      expect(during.status).toBe('degraded');
      expect(during.dependencies).toContainEqual(
        expect.objectContaining({ name: 'database', kind: 'sqlite', status: 'degraded' }),
      );
      expect(during.dependencies.find((d) => d.name === 'database')?.pending).toBeGreaterThanOrEqual(3);
      // /about says so too, in plain words.
      const about = await ask(chatInput('about', {}, reader));
      expect(about.text).toMatch(
        /"name":"Degraded","value":"The records database \(sqlite\) is unavailable since [^"]+; \d+ records wait for it\./,
      );

      locker.kill('SIGKILL');
      released = true;
      const deadline = Date.now() + 20_000;
      while ((app.records.keeper?.pending ?? 0) > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const db = new Database(file, { readonly: true });
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
      expect(count('SELECT COUNT(*) AS n FROM answers')).toBe(1);
      expect(count('SELECT COUNT(*) AS n FROM unanswered')).toBe(1);
      // The answer's citations, with the message id the endpoint read back from the webhook.
      expect(count('SELECT COUNT(*) AS n FROM cited_passages WHERE message_id IS NOT NULL')).toBeGreaterThan(
        0,
      );
      db.close();
      expect((await health()).status).toBe('ok');
    } finally {
      if (!released) locker.kill('SIGKILL');
    }
  }, 60_000);
});
