// `node src/cli/run-compiled.mjs src/cli/ask.ts args...`: runs a TypeScript command compiled into one
// JavaScript file with the libraries it imports (`src/compiled-module.mjs`), so that a call does not
// pay for tsx's loader, and is compiled again whenever any of its sources changed. It is compiled to
// CommonJS and run through `vm.Script` with V8's compiled code of an earlier call, kept beside it
// (`ask.v8`): a call that finds it skips parsing and compiling the megabyte of code (about a tenth of a
// second of CPU; node 20 has no compile cache of its own, and none for an ES module).
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { compiledModule } from '../compiled-module.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node src/cli/run-compiled.mjs src/cli/<command>.ts [arguments]\n');
  process.exit(2);
}
/**
 * Runs the compiled command with V8's code from an earlier call when there is one for exactly this
 * code (V8 itself checks only the code's length, its own version and flags: the file starts with the
 * code's sha256); else keeps V8's code once the command is done, for the next call.
 */
function run(out) {
  const code = readFileSync(out, 'utf8');
  const codeCache = out.replace(/\.[cm]?js$/, '.v8');
  const hash = createHash('sha256').update(code).digest();
  let cachedData;
  try {
    const kept = readFileSync(codeCache);
    if (kept.subarray(0, hash.byteLength).equals(hash)) cachedData = kept.subarray(hash.byteLength);
  } catch {
    // None kept yet: made below.
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, {
    filename: out,
    ...(cachedData ? { cachedData } : {}),
  });
  if (cachedData === undefined || script.cachedDataRejected) {
    // Once the command is done, so that the functions it ran are kept compiled too.
    process.once('beforeExit', () => {
      try {
        const temporary = `${codeCache}.${randomBytes(6).toString('hex')}.tmp`;
        writeFileSync(temporary, Buffer.concat([hash, script.createCachedData()]));
        renameSync(temporary, codeCache);
      } catch {
        // Not kept (a read-only or full disk): the next call compiles again, that is all.
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(out), module, out, path.dirname(out));
}

const compiled = await compiledModule(entry, { commonjs: true });
// The command reads its own arguments as if it had been started directly.
process.argv = [process.argv[0], path.join(ROOT, entry), ...args];
if (compiled) {
  run(fileURLToPath(compiled));
} else {
  // Nowhere to write it (a read-only node_modules): the command runs through tsx, only slower.
  (await import('tsx/esm/api')).register();
  await import(pathToFileURL(path.join(ROOT, entry)).href);
}
