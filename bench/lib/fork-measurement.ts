import { fork } from 'node:child_process';

const tsxLoader = import.meta.resolve('tsx');

/**
 * Runs `entry` (a TypeScript file) in a fresh node process with `job` as its argument and resolves to
 * the first message it sends. The child's stdout goes to our stderr, keeping our stdout for reports.
 * Resolves to `fail(reason)`, never rejects, when the child crashes or exceeds `timeoutMs`.
 */
export function forkMeasurement<Outcome>(
  entry: string,
  job: unknown,
  options: { timeoutMs: number; execArgv: string[]; fail: (error: string) => Outcome },
): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = fork(entry, [JSON.stringify(job)], {
      execArgv: ['--import', tsxLoader, ...options.execArgv],
      stdio: ['ignore', 2, 2, 'ipc'],
    });
    let outcome: Outcome | undefined;
    const timer = setTimeout(() => {
      outcome ??= options.fail(`timed out after ${Math.round(options.timeoutMs / 1000)} s`);
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('message', (message) => {
      outcome ??= message as Outcome;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(outcome ?? options.fail(`child exited with ${signal ?? `code ${code}`} before reporting`));
    });
  });
}
