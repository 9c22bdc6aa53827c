// `node src/cli/run-compiled.mjs src/cli/ask.ts args...`: runs a TypeScript command compiled into one
// JavaScript file, so that a call does not pay for tsx (its loader thread and a hook call per module,
// about a second of CPU: more than a question on a cached index costs). The libraries it imports are
// in that file too, so that node does not resolve and load their modules one by one (zod alone is a
// hundred: a tenth of a second of every call). The compiled file is kept in node_modules/.cache/newsdesk/
// and compiled again (by esbuild, which tsx itself uses) as soon as any file it was compiled from (its
// libraries' included) changed size or time, so it never runs older code than the sources'. V8's
// compiled code for it is kept beside it (`ask.v8`): a call that finds it skips parsing and compiling
// the megabyte of code (about a tenth of a second of CPU; node 20 has no compile cache of its own).
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT_DIR = path.join(ROOT, 'node_modules', '.cache', 'newsdesk');
const HEADER = '// compiled from: ';

/** `{ file: [size, mtimeMs] }` of each file the compiled code came from. */
function stamp(file) {
  const info = statSync(path.join(ROOT, file), { throwIfNoEntry: false });
  return info ? [info.size, info.mtimeMs] : null;
}

/** The first line of a file, read alone (the compiled file is a megabyte; its first line a few kilobytes). */
function firstLineOf(file) {
  const fd = openSync(file, 'r');
  try {
    const chunks = [];
    const chunk = Buffer.allocUnsafe(64 * 1024);
    for (let position = 0; ; ) {
      const read = readSync(fd, chunk, 0, chunk.byteLength, position);
      const newline = chunk.subarray(0, read).indexOf(0x0a);
      if (read === 0 || newline >= 0) {
        chunks.push(Buffer.from(chunk.subarray(0, newline >= 0 ? newline : read)));
        return Buffer.concat(chunks).toString('utf8');
      }
      chunks.push(Buffer.from(chunk.subarray(0, read)));
      position += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** The compiled file if every source it names is as it was when it was compiled. */
function fresh(out) {
  let firstLine;
  try {
    firstLine = firstLineOf(out);
  } catch {
    return false;
  }
  if (!firstLine.startsWith(HEADER)) return false;
  const sources = JSON.parse(firstLine.slice(HEADER.length));
  return Object.entries(sources).every(([file, was]) => JSON.stringify(stamp(file)) === JSON.stringify(was));
}

/**
 * Each module's `import.meta.url` is its own source file's URL, as under tsx: the code finds files
 * beside it (`ranking-model.json`, worker entry points) and requires packages relative to it.
 */
const sourceUrls = {
  name: 'source-urls',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

async function compile(entry, out) {
  const { build } = await import('esbuild');
  const started = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    // CommonJS, which `vm.Script` runs with V8's cached code (an ES module cannot be given it on node 20).
    format: 'cjs',
    target: 'node20',
    // Native addons cannot be bundled.
    external: ['*.node', 'better-sqlite3'],
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [sourceUrls],
  });
  // `import.meta` is empty in CommonJS: code that reads it other than for its `url` (which the plugin
  // above writes in) would run wrongly, so it is not run at all.
  const lost = result.warnings.find((warning) => warning.text.includes('import.meta'));
  if (lost) throw new Error(`cannot compile ${entry}: ${lost.text} (${lost.location?.file})`);
  const sources = Object.fromEntries(
    [
      ...Object.keys(result.metafile.inputs),
      'src/cli/run-compiled.mjs',
      'tsconfig.json',
      'package-lock.json',
    ].map((file) => {
      const was = stamp(file);
      // A file edited while this compiled may not be in it: compiled again next time.
      return [file, was && was[1] < started - 1000 ? was : null];
    }),
  );
  mkdirSync(OUT_DIR, { recursive: true });
  // Atomic, so that two calls compiling at once never run half a file.
  const temporary = `${out}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(temporary, `${HEADER}${JSON.stringify(sources)}\n${result.outputFiles[0].text}`);
  renameSync(temporary, out);
}

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node src/cli/run-compiled.mjs src/cli/<command>.ts [arguments]\n');
  process.exit(2);
}
const out = path.join(OUT_DIR, `${path.basename(entry, '.ts')}.cjs`);
let compiled = true;
if (!fresh(out)) {
  try {
    await compile(entry, out);
  } catch (error) {
    // Nowhere to write it (a read-only node_modules): the command runs through tsx, only slower.
    if (!['EACCES', 'EROFS', 'EPERM', 'ENOSPC'].includes(error?.code)) throw error;
    compiled = false;
  }
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

// The command reads its own arguments as if it had been started directly.
process.argv = [process.argv[0], path.join(ROOT, entry), ...args];
if (compiled) {
  run(out);
} else {
  (await import('tsx/esm/api')).register();
  await import(pathToFileURL(path.join(ROOT, entry)).href);
}
