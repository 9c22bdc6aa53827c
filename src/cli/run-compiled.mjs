// `node src/cli/run-compiled.mjs src/cli/ask.ts args...`: runs a TypeScript command compiled into one
// JavaScript file with the libraries it imports (`src/compiled-module.mjs`), so that a call does not
// pay for tsx's loader, and is compiled again whenever any of its sources changed.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compiledModule } from '../compiled-module.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node src/cli/run-compiled.mjs src/cli/<command>.ts [arguments]\n');
  process.exit(2);
}
const compiled = await compiledModule(entry);
// The command reads its own arguments as if it had been started directly.
process.argv = [process.argv[0], path.join(ROOT, entry), ...args];
if (compiled) {
  await import(compiled);
} else {
  // Nowhere to write it (a read-only node_modules): the command runs through tsx, only slower.
  (await import('tsx/esm/api')).register();
  await import(pathToFileURL(path.join(ROOT, entry)).href);
}
