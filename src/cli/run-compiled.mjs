// `node src/cli/run-compiled.mjs src/cli/ask.ts args...`: runs a TypeScript command compiled into one
// JavaScript file, so that a call does not pay for tsx (its loader thread and a hook call per module,
// about a second of CPU: more than a question on a cached index costs). The libraries it imports are
// in that file too, so that node does not resolve and load their modules one by one (zod alone is a
// hundred: a tenth of a second of every call). The compiled file is kept in node_modules/.cache/newsdesk/
// and compiled again (by esbuild, which tsx itself uses) as soon as any file it was compiled from (its
// libraries' included) changed size or time, so it never runs older code than the sources'.
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
    format: 'esm',
    target: 'node20',
    // Native addons cannot be bundled; a library read with `require` (CommonJS) is given one.
    external: ['*.node', 'better-sqlite3'],
    banner: {
      js: "import { createRequire as newsdeskRequire } from 'node:module'; const require = newsdeskRequire(import.meta.url);",
    },
    write: false,
    metafile: true,
    logLevel: 'error',
    plugins: [sourceUrls],
  });
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
const out = path.join(OUT_DIR, `${path.basename(entry, '.ts')}.mjs`);
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
// The command reads its own arguments as if it had been started directly.
process.argv = [process.argv[0], path.join(ROOT, entry), ...args];
if (compiled) {
  await import(pathToFileURL(out).href);
} else {
  (await import('tsx/esm/api')).register();
  await import(pathToFileURL(path.join(ROOT, entry)).href);
}
