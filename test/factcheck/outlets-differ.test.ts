import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { disagreementsIn, disagreementsOf } from '../../src/factcheck/outlets-differ.ts';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { Engine } from '../../src/search/engine.ts';
import { type Harness, member, startHarness, textOf } from '../e2e/harness.ts';
import { sharedData } from '../support/shared-data.ts';
import { chatInput } from '../support/stand-in-discord/interactions.ts';

const FIXTURES = 'test/factcheck/fixtures/outlets';
const HOW_MANY = 'How many migrants tried to cross the Channel from Calais?';

describe('GIVEN three outlets reporting one statement with different figures and days, and two naming different mayors', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = Engine.build(await loadCorpus(FIXTURES));
  });

  it('reports each outlet’s figure and day with its citation', () => {
    const answer = engine.answer(HOW_MANY);
    const found = disagreementsIn(answer.results, engine).get('telegraph-channel-crossings#1');
    expect(found).toEqual([
      {
        kind: 'number',
        values: [
          { value: '18,000', outlet: 'The Telegraph', citation: 'telegraph-channel-crossings#1' },
          { value: '18,000', outlet: 'The Guardian', citation: 'guardian-channel-crossings#1' },
          { value: '20,000', outlet: 'BBC', citation: 'bbc-channel-crossings#1' },
        ],
      },
      {
        kind: 'date',
        values: [
          { value: 'Tuesday', outlet: 'The Telegraph', citation: 'telegraph-channel-crossings#1' },
          { value: 'Wednesday', outlet: 'The Guardian', citation: 'guardian-channel-crossings#1' },
          { value: 'Tuesday', outlet: 'BBC', citation: 'bbc-channel-crossings#1' },
        ],
      },
    ]);
  });

  it('reports a whole name given differently as one value', () => {
    const answer = engine.answer('Who is the mayor of Calais?');
    expect(disagreementsIn(answer.results, engine).get('independent-mayor#1')).toEqual([
      {
        kind: 'name',
        values: [
          { value: 'Natacha Bouchart', outlet: 'The Independent', citation: 'independent-mayor#1' },
          { value: 'Xavier Bertrand', outlet: 'Daily Mirror', citation: 'mirror-mayor#1' },
        ],
      },
    ]);
  });

  it('says nothing where the outlets agree (the seed corpus)', async () => {
    const seed = Engine.build(await loadCorpus('corpus'));
    const answer = seed.answer('Who threatened the mayor of Teteghem?', { limit: 5 });
    expect(disagreementsIn(answer.results, seed).size).toBe(0);
  });

  // Two CLI processes, each with its index worker: 21 s alone at load 15, past 30 s in the full suite.
  it('the CLI prints them, in text and in JSON', { timeout: 90_000 }, async () => {
    const run = (args: string[]) =>
      new Promise<string>((resolve) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/cli/ask.ts', '--corpus', FIXTURES, ...args],
          // No index cache: the CLI would otherwise save one into the checkout's .cache/.
          { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', INDEX_CACHE_DIR: '' } },
          (_error, stdout) => resolve(stdout),
        ),
      );
    expect(await run([HOW_MANY])).toContain(
      'Outlets differ on a number: 18,000 (The Telegraph [telegraph-channel-crossings#1], The Guardian [guardian-channel-crossings#1]) · 20,000 (BBC [bbc-channel-crossings#1])',
    );
    const json = JSON.parse(await run(['--json', HOW_MANY])) as {
      results: { outletsDiffer: { kind: string }[] }[];
    };
    expect(json.results[0]?.outletsDiffer.map((d) => d.kind)).toEqual(['number', 'date']);
  });
});

// Reports the answer grouped as one fact without being one text: aligned word by word they paired
// "for" with "January" and "President" with "half", and the CLI said the outlets differed on them.
describe('GIVEN Reuters reports grouped with an answer on the Bundesbank (the shared Reuters file)', {
  tags: ['shared-data'],
}, () => {
  let engine: Engine;
  const textOf = (citation: string) => engine.passage(citation)?.passage.text.replace(/\s+/g, ' ') ?? '';
  beforeAll(async () => {
    const ids = new Set(['reuters-20038', 'reuters-8137', 'reuters-13670', 'reuters-14302']);
    const lines = (await readFile(sharedData('reuters'), 'utf8'))
      .split('\n')
      .filter((line) => ids.has(/"id": *"([^"]+)"/.exec(line)?.[1] ?? ''));
    const dir = await mkdtemp(path.join(tmpdir(), 'outlets-'));
    await writeFile(path.join(dir, 'reuters.jsonl'), `${lines.join('\n')}\n`);
    engine = Engine.build(await loadCorpus(dir));
    await rm(dir, { recursive: true });
  });

  it('says nothing where the other report is another text, not the same one with a value changed', () => {
    // The quote `npm run ask` showed for "what did the Bundesbank say about interest rates?".
    const quote =
      'Rises in West German and international interest rates are a cause for concern and the Bundesbank has no interest in higher capital market rates, Bundesbank President Karl Otto Poehl said.';
    expect(textOf('reuters-20038#1')).toContain(quote);
    const result = {
      citation: 'reuters-20038#1',
      quote,
      alsoReportedBy: ['reuters-8137#6'],
      publisher: null,
      title: 'POEHL',
    };
    expect(disagreementsOf(result, engine)).toEqual([]);
  });

  it('still gives the figures two reports of one market give differently', () => {
    const result = {
      citation: 'reuters-13670#1',
      quote: textOf('reuters-13670#1'),
      alsoReportedBy: ['reuters-14302#1'],
      publisher: null,
      title: 'LME',
    };
    const values = disagreementsOf(result, engine).map(
      (d) => `${d.kind}: ${d.values.map((v) => v.value).join(' / ')}`,
    );
    expect(values).toContain('number: 883 / 879');
    expect(values).toContain('number: 1,417 / 1,410');
  });
});

describe('GIVEN the bot on those outlets, logged in to the stand-in Discord', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ corpusPath: FIXTURES, env: { RATE_LIMIT_QUESTIONS: '100' } });
  });
  afterAll(async () => {
    await harness?.stop();
  });

  it('/ask says the outlets differ, with each value and citation', async () => {
    const { data } = await harness.discord.interact(chatInput('ask', { question: HOW_MANY }, member)).final();
    expect(payloadViolations(data)).toEqual([]);
    expect(textOf(data)).toContain(
      '**Outlets differ** on a number: 18,000 (The Telegraph `telegraph-channel-crossings#1`, The Guardian `guardian-channel-crossings#1`) · 20,000 (BBC `bbc-channel-crossings#1`)',
    );
  });
});
