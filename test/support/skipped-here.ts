import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** A tag whose tests this machine skips (`vitest.config.ts`), and why, in the words of the line. */
export interface SkipReason {
  tag: string;
  why: string;
}

/**
 * Prints, as the run's last line, every test this machine skipped for want of something a user's clone
 * lacks (`../shared`, PostgreSQL and Redis, systemd-analyze): how many, why, and their files, so that a
 * green run says in one line what it did not run.
 */
export class SkippedHere implements Reporter {
  constructor(private readonly reasons: readonly SkipReason[]) {}

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const parts: string[] = [];
    let total = 0;
    for (const { tag, why } of this.reasons) {
      const files = new Set<string>();
      let tests = 0;
      for (const module of modules) {
        for (const test of module.children.allTests()) {
          if (!test.tags.includes(tag) || test.result().state !== 'skipped') continue;
          tests += 1;
          files.add(path.relative(process.cwd(), module.moduleId));
        }
      }
      if (tests === 0) continue;
      total += tests;
      parts.push(`${tests} ${why}, in ${[...files].sort().join(', ')}`);
    }
    if (total === 0) return;
    process.stdout.write(`Skipped ${total} tests, all run in CI: ${parts.join('; ')}\n`);
  }
}
