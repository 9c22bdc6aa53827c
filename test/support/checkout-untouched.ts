// Vitest's global setup: the run fails if a test wrote the bot's default stores into the checkout
// (.data/ for the community database, .cache/ for the index cache). A test that starts the bot or a
// CLI without DATA_DIR and INDEX_CACHE_DIR of its own writes there, and what it leaves is read by
// the developer's next `npm start` as if it were theirs.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STORES = ['.data', '.cache'];

/** Each file of the default stores, with when it was last written. */
function storeFiles(): Map<string, number> {
  const files = new Map<string, number>();
  for (const store of STORES) {
    let names: string[];
    try {
      names = readdirSync(path.join(ROOT, store));
    } catch {
      continue; // No such folder: nothing written there.
    }
    for (const name of names) {
      const file = path.join(store, name);
      try {
        files.set(file, statSync(path.join(ROOT, file)).mtimeMs);
      } catch {
        // Removed between the listing and the stat (a -wal file at close).
      }
    }
  }
  return files;
}

export default function setup(): () => void {
  const before = storeFiles();
  return () => {
    const written = [...storeFiles()]
      .filter(([file, mtime]) => before.get(file) !== mtime)
      .map(([file]) => file);
    if (written.length === 0) return;
    // Vitest reports an error thrown here but still exits 0, so the exit code is set instead.
    process.stderr.write(
      `newsdesk tests: a test wrote into the checkout: ${written.sort().join(', ')}. Give the bot or ` +
        "CLI it starts DATA_DIR and INDEX_CACHE_DIR of its own (a temporary folder, or '' for none).\n",
    );
    process.exitCode = 1;
  };
}
