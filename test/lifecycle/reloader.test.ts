import { mkdir, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeReloadOutcome } from '../../src/interactions/render/reload.ts';
import type { Library } from '../../src/library.ts';
import type { AuditEntry } from '../../src/lifecycle/audit-log.ts';
import type { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { type ReloadOutcome, summarizeOutcome } from '../../src/lifecycle/reloader.ts';
import { floodQuestions } from '../search/index-threads/fixtures/flood-questions.ts';
import { articleText, auditedLibrary, copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';

let folder: string;
let cleanup: () => Promise<void>;
let library: Library;
let lifecycle: CorpusLifecycle;
let audit: AuditEntry[];

beforeEach(async () => {
  ({ corpus: folder, cleanup } = await copyOfBundledCorpus());
  ({ library, lifecycle, audit } = await auditedLibrary(folder, { lifecycle: { sliceSize: 1 } }));
});
afterEach(() => cleanup());

function expectStatus<S extends ReloadOutcome['status']>(
  outcome: ReloadOutcome,
  status: S,
): asserts outcome is Extract<ReloadOutcome, { status: S }> {
  expect(outcome.status, JSON.stringify(outcome)).toBe(status);
}

describe('Library.reload', () => {
  it('keeps answering every question while a good corpus and then a broken one are reloaded', async () => {
    const flood = floodQuestions(library, 'who threatened the mayor of Teteghem?', TETEGHEM);
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);

    const before = flood.answered();
    const good = await lifecycle.reload({ trigger: 'command' });
    const duringGood = flood.answered() - before;
    expectStatus(good, 'reloaded');
    expect(good.report.added).toEqual(['lighthouse']);
    expect(library.engine.answer('who rescued the stranded kayakers?').results[0]?.article).toBe(
      'lighthouse',
    );

    await writeFile(
      path.join(folder, 'broken.md'),
      '---\npublisher: Nobody\nlanguage: not a language\n---\n\n',
    );
    await writeFile(path.join(folder, 'binary.txt'), Uint8Array.from([0x48, 0x69, 0xff, 0xfe, 0x00]));
    const versionServing = library.engine.version;
    const broken = await lifecycle.reload({ trigger: 'command' });
    expectStatus(broken, 'refused');
    // Every problem in every file is listed, not just the first.
    expect(broken.problems.map((problem) => `${path.basename(problem.file)}: ${problem.message}`)).toEqual(
      expect.arrayContaining([
        'binary.txt: file is not valid UTF-8 text',
        'broken.md: title is required',
        expect.stringMatching(/^broken\.md: language/),
      ]),
    );
    expect(library.engine.version).toBe(versionServing);
    expect(library.engine.answer('who rescued the stranded kayakers?').results[0]?.article).toBe(
      'lighthouse',
    );

    await new Promise((resolve) => setTimeout(resolve, 20));
    flood.stop();
    expect(flood.failures).toEqual([]);
    // Questions were answered while the reload was running, not only before and after it.
    expect(duringGood).toBeGreaterThan(0);
  });

  it('tells a second request that a reload is already running instead of starting another', async () => {
    const first = lifecycle.reload({ actor: { id: '1001', name: 'alice' } });
    const second = await lifecycle.reload({ actor: { id: '1002', name: 'bob' } });
    expectStatus(second, 'busy');
    expect(second.runningFor.name).toBe('alice');
    expectStatus(await first, 'reloaded');
    expectStatus(await lifecycle.reload(), 'reloaded');
  });

  it('runs a queued request after the running one, so a change written meanwhile is picked up', async () => {
    const first = lifecycle.reload();
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const queued = await lifecycle.reload({ queue: true, trigger: 'corpus-change' });
    await first;
    expectStatus(queued, 'reloaded');
    expect(library.engine.article('lighthouse')?.title).toMatch(/^Lighthouse keeper/);
  });

  it('reports articles added, removed and changed, passages before and after, and both versions', async () => {
    const versionBefore = library.engine.version;
    const passagesBefore = library.engine.passageCount;
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    await unlink(path.join(folder, 'calais-mayor-renews-border-threat.md'));
    await writeFile(
      path.join(folder, 'teteghem-mayor-threatened-with-gun.md'),
      articleText(
        'French mayor threatened with a gun',
        'The mayor of Teteghem said smugglers threatened him with a gun.',
      ),
    );
    const outcome = await lifecycle.reload({ actor: { id: '1001', name: 'alice' } });
    expectStatus(outcome, 'reloaded');
    const report = outcome.report;
    expect(report).toMatchObject({
      added: ['lighthouse'],
      removed: ['calais-mayor-renews-border-threat'],
      changed: ['teteghem-mayor-threatened-with-gun'],
      articlesBefore: 3,
      articlesAfter: 3,
      passagesBefore,
      passagesAfter: library.engine.passageCount,
      versionBefore,
      versionAfter: library.engine.version,
      unchanged: false,
    });
    expect(report.versionAfter).not.toBe(versionBefore);
    expect(report.durationMs).toBeGreaterThanOrEqual(0);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor: { id: '1001', name: 'alice' },
      action: 'reload',
      outcome: 'ok',
      versionBefore,
      versionAfter: report.versionAfter,
    });
  });

  it('lists the files it did not read, a count and the first few names, in its report and reply', async () => {
    await writeFile(path.join(folder, 'notes.doc'), 'not an article');
    await mkdir(path.join(folder, 'sub'));
    await writeFile(path.join(folder, 'sub', 'nested.md'), LIGHTHOUSE);
    const outcome = await lifecycle.reload({ trigger: 'command' });
    expectStatus(outcome, 'reloaded');
    expect(outcome.report.skipped).toEqual(['notes.doc', 'sub/']);
    expect(summarizeOutcome(outcome)).toContain('2 files not read: notes.doc, sub/');
    expect(describeReloadOutcome(outcome)).toContain(
      '2 files not read: `notes.doc`, `sub/`. Only .md, .markdown, .txt and .jsonl files directly in the corpus folder are read (not subfolders).',
    );
    expect(library.engine.article('nested')).toBeUndefined();
  });

  it('reports an unchanged corpus without rebuilding or swapping', async () => {
    const engine = library.engine;
    const outcome = await lifecycle.reload();
    expectStatus(outcome, 'reloaded');
    expect(outcome.report.unchanged).toBe(true);
    expect(library.engine).toBe(engine);
  });

  it('keeps the old engine when the corpus folder has vanished, and records the refusal', async () => {
    const engine = library.engine;
    await cleanup();
    const outcome = await lifecycle.reload({ actor: { id: '1001', name: 'alice' } });
    expectStatus(outcome, 'refused');
    expect(outcome.problems[0]?.message).toBe('no such file or folder');
    expect(library.engine).toBe(engine);
    expect(audit[0]).toMatchObject({
      outcome: 'refused',
      versionBefore: engine.version,
      versionAfter: engine.version,
    });
  });

  it('reports progress while indexing', async () => {
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const phases: string[] = [];
    const outcome = await lifecycle.reload({
      onProgress: (progress) => phases.push(`${progress.phase} ${progress.done}/${progress.total}`),
    });
    expectStatus(outcome, 'reloaded');
    expect(phases).toEqual([
      'reading 0/0',
      'indexing 1/4',
      'indexing 2/4',
      'indexing 3/4',
      'indexing 4/4',
      'comparing 0/0',
    ]);
  });
});
