import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, parse } from 'node:path';
import type { ReplyFile } from '../../interactions/incoming.ts';

/**
 * Where the console puts the files a reply attaches (a terminal shows no picture): one new folder under
 * the system's temporary folder per console, each file under a name of its own (`timeline-2.png`), so a
 * later reply never overwrites one still open in a viewer.
 */
export class SavedFiles {
  readonly #root: string;
  #folder: string | undefined;
  #count = 0;

  constructor(root: string = tmpdir()) {
    this.#root = root;
  }

  /** Writes `files` and returns their paths, in order. */
  save(files: readonly ReplyFile[]): string[] {
    if (files.length === 0) return [];
    if (!this.#folder) {
      mkdirSync(this.#root, { recursive: true });
      this.#folder = mkdtempSync(join(this.#root, 'newsdesk-'));
    }
    return files.map((file) => {
      this.#count += 1;
      const { name, ext } = parse(file.name);
      const path = join(this.#folder!, `${name.replace(/[^\w-]/g, '_')}-${this.#count}${ext}`);
      writeFileSync(path, file.data);
      return path;
    });
  }
}
