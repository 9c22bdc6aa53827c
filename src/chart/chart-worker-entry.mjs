// Worker thread entry: runs `chart-worker.ts` compiled into one JavaScript file with Chart.js
// (`src/compiled-module.mjs`, as the index worker does); where the compiled file cannot be written,
// through tsx's loader, only slower to start.
import { compiledModule } from '../compiled-module.mjs';

const compiled = await compiledModule('src/chart/chart-worker.ts');
if (compiled) {
  await import(compiled);
} else {
  (await import('tsx/esm/api')).register();
  await import('./chart-worker.ts');
}
