import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints, as the run's last line, the tests skipped because `../shared` is missing (a user's clone):
 * how many, why, and their files, so that a green run says what it did not run.
 */
export class SharedDataSkips implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const files = new Set<string>();
    let tests = 0;
    for (const module of modules) {
      for (const test of module.children.allTests()) {
        if (!test.tags.includes('shared-data') || test.result().state !== 'skipped') continue;
        tests += 1;
        files.add(path.relative(process.cwd(), module.moduleId));
      }
    }
    if (tests === 0) return;
    process.stdout.write(
      `Skipped ${tests} tests that read ../shared (the NewsQA, Reuters and BBC data sets; not in a clone, ` +
        `run in CI): ${[...files].sort().join(', ')}\n`,
    );
  }
}
