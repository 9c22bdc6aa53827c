// Worker thread entry: runs `index-worker.ts` compiled into one JavaScript file with the libraries it
// imports (`src/compiled-module.mjs`; compiled again whenever a source changed). Through tsx's loader,
// a worker spent about a second of CPU importing its modules (more at load), most of a start from the
// persisted index. Worker threads do not inherit tsx's loader for their entry file: where the compiled
// file cannot be written, tsx is registered here and the TypeScript runs through it, only slower.
import { compiledModule } from '../../compiled-module.mjs';

const compiled = await compiledModule('src/search/index-threads/index-worker.ts');
if (compiled) {
  await import(compiled);
} else {
  (await import('tsx/esm/api')).register();
  await import('./index-worker.ts');
}
