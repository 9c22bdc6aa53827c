import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { disagreementsIn } from '../../src/factcheck/outlets-differ.ts';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { Engine } from '../../src/search/engine.ts';
import { type Harness, member, startHarness, textOf } from '../e2e/harness.ts';
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
          { env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' } },
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
