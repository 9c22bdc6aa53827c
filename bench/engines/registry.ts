import type { EngineAdapter } from './engine-adapter.ts';
import { flexSearch } from './flexsearch.ts';
import { lunrDefaults } from './lunr.ts';
import { miniSearchDefaults } from './minisearch-defaults.ts';
import { newsdesk } from './newsdesk.ts';
import { newsdeskFiltered, newsdeskTimeline } from './newsdesk-dated.ts';
import { orama } from './orama.ts';

/**
 * Every engine the benchmark measures, in report order: this project's engine first, then as `/ask`
 * with a period and `/timeline` use it (issue 11: their p99 against the unfiltered `/ask`'s).
 */
export const engineAdapters: readonly EngineAdapter[] = [
  newsdesk,
  newsdeskFiltered,
  newsdeskTimeline,
  miniSearchDefaults,
  lunrDefaults,
  flexSearch,
  orama,
];

export function findEngineAdapter(name: string): EngineAdapter | undefined {
  return engineAdapters.find((adapter) => adapter.name === name);
}
