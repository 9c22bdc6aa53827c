import type { AnyCommand } from '../src/interactions/command.ts';
import about from './about.ts';
import ask from './ask.ts';
import cite from './cite.ts';
import corpus from './corpus.ts';
import findCoverage from './find-coverage.ts';
import gaps from './gaps.ts';
import reload from './reload.ts';
import sources from './sources.ts';
import watches from './watches.ts';

/**
 * Every command the bot offers, in the order `/help` lists them. A static list rather than a folder
 * scan: the type checker sees every module, and nothing loads by accident.
 */
export const commands: readonly AnyCommand[] = [
  ask,
  cite,
  sources,
  about,
  findCoverage,
  watches,
  reload,
  corpus,
  gaps,
];
