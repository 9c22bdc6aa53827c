/**
 * `npm run eval`: NewsQA retrieval quality (bench/eval-newsqa.ts), or with `--quotes` the quote-check
 * eval (bench/eval-quotes.ts, also `npm run eval:quotes`). Each module reads its own options.
 */
if (process.argv.includes('--quotes')) await import('./eval-quotes.ts');
else await import('./eval-newsqa.ts');
