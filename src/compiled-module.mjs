// A TypeScript entry point compiled into one JavaScript file, so that running it does not pay for tsx
// (its loader thread and a hook call per module, about a second of CPU: more than a question on a
// cached index costs, and most of an index worker's start from the persisted index). The libraries it
// imports are in that file too, so that node does not resolve and load their modules one by one (zod
// alone is a hundred: a tenth of a second of every call). The compiled file is kept in
// node_modules/.cache/newsdesk/ and compiled again (by esbuild, which tsx itself uses) as soon as any
// file it was compiled from (its libraries' included) changed size or time, so it never runs older code
// than the sources'. Used by `run-compiled.mjs` (the CLI) and the index worker's entry point.
import { randomBytes } from 'node:crypto';
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
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
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

async function compile(entry, out, commonjs) {
  const { build } = await import('esbuild');
  const started = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    // Native addons cannot be bundled.
    external: ['*.node', 'better-sqlite3', '@napi-rs/canvas'],
    ...(commonjs
      ? { format: 'cjs' }
      : {
          format: 'esm',
          // A library read with `require` (CommonJS) is given one.
          banner: {
            js: "import { createRequire as newsdeskRequire } from 'node:module'; const require = newsdeskRequire(import.meta.url);",
          },
        }),
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
      'src/compiled-module.mjs',
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

/**
 * The URL of `entry` (a path from the repository's root, `src/…/x.ts`) compiled, compiling it first if
 * any of its sources changed; undefined when there is nowhere to write it (a read-only node_modules):
 * the caller then runs the TypeScript through tsx, only slower. `commonjs`: compiled to CommonJS (`.cjs`),
 * for `vm.Script`, which can be given V8's compiled code of an earlier run (`run-compiled.mjs`).
 */
export async function compiledModule(entry, { commonjs = false } = {}) {
  const out = path.join(OUT_DIR, `${path.basename(entry, '.ts')}.${commonjs ? 'cjs' : 'mjs'}`);
  if (!fresh(out)) {
    try {
      await compile(entry, out, commonjs);
    } catch (error) {
      if (!['EACCES', 'EROFS', 'EPERM', 'ENOSPC'].includes(error?.code)) throw error;
      return undefined;
    }
  }
  return pathToFileURL(out).href;
}
