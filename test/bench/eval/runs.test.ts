import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { halfAt, loadQuestionSet } from '../../../bench/eval/question-set.ts';
import { evaluateRun, parseSets, RUN_NAMES } from '../../../bench/eval/runs.ts';

describe('parseSets', () => {
  it('runs every set when none is named', () => {
    expect(parseSets(undefined)).toEqual(RUN_NAMES);
  });

  it('takes offtopic to mean both off-topic runs, in the usual order', () => {
    expect(parseSets('seed, offtopic')).toEqual(['off-topic', 'off-topic-seed', 'seed']);
  });

  it('names the valid sets when given an unknown one', () => {
    expect(() => parseSets('newsqa,cnn')).toThrow(/unknown set "cnn"; choose from newsqa, distractors/);
  });
});

describe('halfAt', () => {
  it('puts the 1st, 3rd… question in the tuning half', () => {
    expect([0, 1, 2, 3].map(halfAt)).toEqual(['tune', 'test', 'tune', 'test']);
  });
});

describe('loadQuestionSet', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function file(lines: string[]): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'question-set-'));
    const path = join(dir, 'set.jsonl');
    await writeFile(path, `${lines.join('\n')}\n`);
    return path;
  }

  it('reads answerable and off-topic records', async () => {
    const path = await file([
      '{"id":"s-001","question":"Who?","article":"a","answer":"Bob","half":"tune","note":"casual"}',
      '{"id":"s-002","question":"What is the capital of Australia?","article":null,"answer":null,"half":"test"}',
    ]);
    expect(await loadQuestionSet(path)).toEqual([
      { id: 's-001', question: 'Who?', article: 'a', answer: 'Bob', half: 'tune', note: 'casual' },
      {
        id: 's-002',
        question: 'What is the capital of Australia?',
        article: null,
        answer: null,
        half: 'test',
      },
    ]);
  });

  it('names the line of a record with an article but no answer', async () => {
    const path = await file([
      '{"id":"s-001","question":"Who?","article":"a","answer":"Bob","half":"tune"}',
      '{"id":"s-002","question":"Who?","article":"a","answer":null,"half":"test"}',
    ]);
    await expect(loadQuestionSet(path)).rejects.toThrow(/set\.jsonl:2: expected/);
  });

  it('rejects a half other than tune or test', async () => {
    const path = await file(['{"id":"s-001","question":"Who?","article":null,"answer":null,"half":"dev"}']);
    await expect(loadQuestionSet(path)).rejects.toThrow(/set\.jsonl:1: expected/);
  });
});

describe('evaluateRun', () => {
  it('asks every seed question of the index and scores what it returns', async () => {
    const asked: string[] = [];
    const outcomes = await evaluateRun(
      {
        search(question, limit) {
          asked.push(question);
          expect(limit).toBe(5);
          return [];
        },
      },
      'seed',
    );
    const seed = await loadQuestionSet(
      new URL('../../../bench/data/questions/seed.jsonl', import.meta.url).pathname,
    );
    expect(asked).toEqual(seed.map((record) => record.question));
    expect(outcomes.every((outcome) => outcome.empty && outcome.rank === null)).toBe(true);
    expect(outcomes.map((outcome) => outcome.half)).toEqual(seed.map((record) => record.half));
  });

  it("asks again within a story only when the reply offers the question's own article", async () => {
    const within: string[] = [];
    const outcomes = await evaluateRun(
      {
        search: () => [],
        reply: () => ({
          results: [],
          assurance: 'closest',
          stories: [{ article: 'teteghem-mayor-threatened-with-gun' }, { article: 'elsewhere' }],
        }),
        within(_question, article) {
          within.push(article);
          return [];
        },
      },
      'seed',
    );
    const seed = await loadQuestionSet(
      new URL('../../../bench/data/questions/seed.jsonl', import.meta.url).pathname,
    );
    const teteghem = seed.filter((record) => record.article === 'teteghem-mayor-threatened-with-gun');
    expect(within).toHaveLength(teteghem.length);
    expect(outcomes.every((outcome) => outcome.asksStory && outcome.getsThere === false)).toBe(true);
  });
});
