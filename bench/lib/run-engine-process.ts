import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { MeasurementJob, MeasurementOutcome } from './measurement.ts';

const entry = fileURLToPath(new URL('./engine-process.ts', import.meta.url));
const tsxLoader = import.meta.resolve('tsx');

/**
 * Measures one engine in a fresh node process (`--expose-gc`, 8 GiB heap) so memory figures hold only
 * that engine's index. The child's stdout is sent to our stderr, keeping our stdout for the report.
 * Resolves to a failure outcome, never rejects, when the child crashes or exceeds `timeoutMs`.
 */
export function runEngineProcess(job: MeasurementJob, timeoutMs: number): Promise<MeasurementOutcome> {
  return new Promise((resolve) => {
    const child = fork(entry, [JSON.stringify(job)], {
      execArgv: ['--import', tsxLoader, '--expose-gc', '--max-old-space-size=8192'],
      stdio: ['ignore', 2, 2, 'ipc'],
    });
    let outcome: MeasurementOutcome | undefined;
    const fail = (error: string) => ({ engine: job.engine, corpusName: job.corpusName, error });
    const timer = setTimeout(() => {
      outcome ??= fail(`timed out after ${Math.round(timeoutMs / 1000)} s`);
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (message) => {
      outcome ??= message as MeasurementOutcome;
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(outcome ?? fail(`child exited with ${signal ?? `code ${code}`} before reporting`));
    });
  });
}
