// @module-tag shared-data (reads ../shared: skipped in a clone without it, run in CI)
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerEngine } from '../../../src/search/index-cache/fast-start.ts';
import { IndexCache } from '../../../src/search/index-cache/index-cache.ts';
import type { WorkerEngine } from '../../../src/search/index-threads/worker-engine.ts';
import { sharedData } from '../../support/shared-data.ts';

// The BBC News articles of ../shared, and the BBC questions written for the eval.
const BBC = sharedData('bbc');
const QUESTIONS = new URL('../../../bench/data/questions/bbc-reuters.jsonl', import.meta.url).pathname;

let root: string;
let built: WorkerEngine;
let restored: WorkerEngine;
let questions: string[];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'newsdesk-restored-'));
  const folder = path.join(root, 'corpus');
  await mkdir(folder);
  await copyFile(BBC, path.join(folder, 'bbc.jsonl'));
  const cache = new IndexCache({ dir: path.join(root, 'cache') });
  // As the bot starts: the index on a worker, built and saved, then restored from the file read ahead.
  const cold = await startWorkerEngine({ corpusPath: folder, cache });
  const warm = await startWorkerEngine({ corpusPath: folder, cache });
  built = cold.engine;
  restored = warm.engine;
  expect([cold.from, warm.from]).toEqual(['built', 'cache']);
  questions = (await readFile(QUESTIONS, 'utf8'))
    .split('\n')
    .filter((line) => line.includes('"article":"bbc-'))
    .map((line) => (JSON.parse(line) as { question: string }).question);
}, 180_000);
afterAll(async () => {
  built?.close();
  restored?.close();
  await rm(root, { recursive: true, force: true });
});

describe('an index restored from the cache file on a real corpus (BBC, 2,225 articles)', () => {
  it('answers the BBC questions of the eval exactly as the index built from the files', async () => {
    expect(questions.length).toBeGreaterThan(50);
    let answered = 0;
    for (const question of questions.slice(0, 40)) {
      const [fresh, again] = await Promise.all([built.answerAsync(question), restored.answerAsync(question)]);
      expect(again, question).toEqual(fresh);
      if (again.results.length > 0) answered++;
    }
    // Not a comparison of empty answers.
    expect(answered).toBeGreaterThan(30);
  }, 120_000);
});
