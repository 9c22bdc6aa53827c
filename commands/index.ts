import type { AnyCommand } from '../src/interactions/command.ts';
import about from './about.ts';
import ask from './ask.ts';
import checkQuote from './check-quote.ts';
import checkQuoteMessage from './check-quote-message.ts';
import cite from './cite.ts';
import corpus from './corpus.ts';
import digest from './digest.ts';
import feeds from './feeds.ts';
import findCoverage from './find-coverage.ts';
import gaps from './gaps.ts';
import reload from './reload.ts';
import settings from './settings.ts';
import sources from './sources.ts';
import timeline from './timeline.ts';
import watches from './watches.ts';

/**
 * Every command the bot offers, in the order `/help` lists them. A static list rather than a folder
 * scan: the type checker sees every module, and nothing loads by accident.
 */
export const commands: readonly AnyCommand[] = [
  ask,
  timeline,
  cite,
  checkQuote,
  sources,
  about,
  findCoverage,
  checkQuoteMessage,
  watches,
  reload,
  corpus,
  feeds,
  gaps,
  settings,
  digest,
];
