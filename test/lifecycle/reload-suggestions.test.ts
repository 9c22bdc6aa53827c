import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { TimeSlicer } from '../../src/event-loop.ts';
import { Library } from '../../src/library.ts';
import { AuditLog } from '../../src/lifecycle/audit-log.ts';
import { CorpusLifecycle } from '../../src/lifecycle/corpus-lifecycle.ts';
import { silentLogger } from '../../src/logging/logger.ts';
import { Engine } from '../../src/search/engine.ts';
import type { SearchEngine } from '../../src/search/search-engine.ts';
import { SuggestionIndex } from '../../src/search/suggestion-index.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../support/temp-corpus.ts';

const TYPED = ['light', 'LIGHTHOUSE', 'calais', 'tete', 'mayor', 'k', 'st', 'zz', ''];

let folder: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ corpus: folder, cleanup } = await copyOfBundledCorpus());
});
afterEach(() => cleanup());

/**
 * Autocompletes back to back on the event loop, each of the engine serving then, checked against a
 * one-shot build over that engine's articles; counts those answered while its sliced build ran.
 */
function floodAutocomplete(library: Library) {
  const expected = new Map<SearchEngine, string[][]>();
  const failures: string[] = [];
  const duringBuild = new Map<string, number>();
  let running = true;
  const ask = () => {
    if (!running) return;
    const engine = library.engine;
    const building = !engine.suggestionsBuilt;
    if (!expected.has(engine)) {
      const index = SuggestionIndex.build(engine.corpus.articles);
      expected.set(
        engine,
        TYPED.map((typed) => index.suggest(typed, 25).map((article) => article.id)),
      );
    }
    const got = TYPED.map((typed) => engine.suggestArticles(typed).map((article) => article.id));
    if (JSON.stringify(got) !== JSON.stringify(expected.get(engine)))
      failures.push(`${engine.version}: ${JSON.stringify(got)}`);
    if (building) duringBuild.set(engine.version, (duringBuild.get(engine.version) ?? 0) + 1);
    setImmediate(ask);
  };
  setImmediate(ask);
  return {
    failures,
    duringBuild,
    stop: () => {
      running = false;
    },
  };
}

describe('autocomplete across a reload', () => {
  it('suggests exactly as a built index would while the new engine builds its index in slices', async () => {
    // Every step of the build its own slice, so that autocompletes land between the steps.
    const library = new Library(Engine.build(await loadCorpus(folder)), {
      suggestionSlicer: () => new TimeSlicer(0),
    });
    const lifecycle = new CorpusLifecycle(library, {
      corpusPath: folder,
      audit: new AuditLog({ logger: silentLogger }),
    });
    const flood = floodAutocomplete(library);
    const before = library.engine;
    await before.prepareSuggestions();

    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const outcome = await lifecycle.reload({ trigger: 'command' });
    expect(outcome.status).toBe('reloaded');
    const after = library.engine;
    expect(after).not.toBe(before);
    await after.prepareSuggestions();
    expect(after.suggestionsBuilt).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    flood.stop();

    expect(flood.failures).toEqual([]);
    // Autocompletes were answered by the new engine while its index was still being built.
    expect(flood.duringBuild.get(after.version) ?? 0).toBeGreaterThan(0);
    expect(after.suggestArticles('light').map((article) => article.id)).toEqual(['lighthouse']);
    expect(before.suggestArticles('light')).toEqual([]);
  });
});
