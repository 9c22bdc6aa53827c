import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { member } from '../../e2e/harness.ts';
import { autocomplete, chatInput } from '../../support/stand-in-discord/interactions.ts';
import { articleText, copyOfBundledCorpus } from '../../support/temp-corpus.ts';
import { startEndpoint, type TestEndpoint } from './support/endpoint.ts';
import { send } from './support/http-client.ts';
import { StandInWebhooks } from './support/stand-in-webhooks.ts';

/**
 * One paragraph of 1.6 MB (as in the attack) with no sentence break, its words drawn from thousands of made-up ones
 * and, one word in twelve, words of the question: it is cut into 2,700 passages, most of which match
 * the question, and scoring them takes the engine from a third of a second to seconds.
 */
function slowParagraph(): string {
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  // biome-ignore format: a list of syllables
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tor', 'vas', 'bel', 'quin', 'dra', 'fey', 'gul', 'hon', 'jas', 'pim', 'sel', 'tam'];
  const syllable = () => syllables[Math.floor(next() * syllables.length)];
  const madeUp = Array.from({ length: 3000 }, () => `${syllable()}${syllable()}${syllable()}`);
  // biome-ignore format: a list of words
  const asked = ['mayor', 'Teteghem', 'threatened', 'gun', 'harbour', 'ferry', 'police', 'council', 'residents', 'meeting'];
  const words: string[] = [];
  for (let length = 0; length < 1_600_000; ) {
    const word =
      next() < 0.08 ? asked[Math.floor(next() * asked.length)]! : madeUp[Math.floor(next() * madeUp.length)]!;
    words.push(word);
    length += word.length + 1;
  }
  return words.join(' ');
}

/**
 * The acknowledgement deadlines of this test: far shorter than the slow search, as 2 s is than 3.6 s.
 * The server's own is a few milliseconds, under one slice of the sliced search (8 ms): a warm search of
 * these passages takes 40-90 ms, so a deadline of 40 ms let a fast machine's search answer first.
 */
const DEFER_AFTER_MS = 20;
const ACKNOWLEDGE_AFTER_MS = 4;

describe('GIVEN the index on the serving thread (INDEX_THREAD=main) and a question whose search is slow', () => {
  const webhooks = new StandInWebhooks();
  let endpoint: TestEndpoint;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    await webhooks.start();
    const copy = await copyOfBundledCorpus();
    cleanup = copy.cleanup;
    await writeFile(
      path.join(copy.corpus, 'endless-council-minutes.md'),
      articleText('Endless council minutes', slowParagraph()),
    );
    endpoint = await startEndpoint({
      corpus: copy.corpus,
      env: { INDEX_THREAD: 'main', DISCORD_API_BASE: webhooks.apiBase },
      deferAfterMs: DEFER_AFTER_MS,
      server: { acknowledgeAfterMs: ACKNOWLEDGE_AFTER_MS },
    });
  }, 120_000);
  afterAll(async () => {
    await endpoint?.close();
    await webhooks.stop();
    await cleanup?.();
  });

  it('THEN the interaction is acknowledged before the search ends, /healthz answers meanwhile, and the answer follows by webhook', async () => {
    const raw = chatInput('ask', { question: 'who threatened the mayor of Teteghem?' }, member);
    const body = JSON.stringify(raw);
    const acknowledgement = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
    // A search holding the thread would have answered late and in place (type 4), past every deadline.
    expect(acknowledgement.status).toBe(200);
    expect(JSON.parse(acknowledgement.text)).toEqual({ type: 5, data: {} });

    const health = await send(`${endpoint.base}/healthz`, { method: 'GET' });
    expect(health.status).toBe(200);
    // The search was still running when the health check was answered.
    expect(webhooks.calls).toEqual([]);

    const [answer] = await webhooks.received(1);
    expect(answer).toMatchObject({
      method: 'PATCH',
      path: expect.stringContaining(`/webhooks/`),
    });
    expect(JSON.stringify(answer?.body)).toContain('teteghem-mayor-threatened-with-gun#');
  }, 60_000);

  it('THEN a citation autocomplete that searches as slowly is answered at its deadline, with no choices', async () => {
    const raw = autocomplete('cite', { id: 'threatened the mayor of Teteghem' }, 'id', member);
    const body = JSON.stringify(raw);
    const reply = await send(endpoint.url, { headers: endpoint.discord.headersFor(body), body });
    // A search holding the thread would have answered with choices, too late for Discord to show them.
    expect(JSON.parse(reply.text)).toEqual({ type: 8, data: { choices: [] } });
  }, 60_000);
});
