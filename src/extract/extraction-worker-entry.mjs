// Worker thread entry: runs `extraction-worker.ts` compiled into one JavaScript file
// (`src/compiled-module.mjs`, as the index and chart workers do); where the compiled file cannot be
// written, through tsx's loader, only slower to start.
import { compiledModule } from '../compiled-module.mjs';

const compiled = await compiledModule('src/extract/extraction-worker.ts');
if (compiled) {
  await import(compiled);
} else {
  (await import('tsx/esm/api')).register();
  await import('./extraction-worker.ts');
}
