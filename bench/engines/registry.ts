import type { EngineAdapter } from './engine-adapter.ts';
import { flexSearch } from './flexsearch.ts';
import { lunrDefaults } from './lunr.ts';
import { miniSearchDefaults } from './minisearch-defaults.ts';
import { newsdesk } from './newsdesk.ts';
import { orama } from './orama.ts';

/**
 * Every engine the benchmark measures, in report order, this project's first. A filtered `/ask` and
 * `/timeline` are measured against the unfiltered `/ask` in one process after them (lib/dated-modes.ts).
 */
export const engineAdapters: readonly EngineAdapter[] = [
  newsdesk,
  miniSearchDefaults,
  lunrDefaults,
  flexSearch,
  orama,
];

export function findEngineAdapter(name: string): EngineAdapter | undefined {
  return engineAdapters.find((adapter) => adapter.name === name);
}
