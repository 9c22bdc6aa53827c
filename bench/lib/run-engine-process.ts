import { fileURLToPath } from 'node:url';
import { forkMeasurement } from './fork-measurement.ts';
import type { MeasurementJob, MeasurementOutcome } from './measurement.ts';

const entry = fileURLToPath(new URL('./engine-process.ts', import.meta.url));

/**
 * Measures one engine in a fresh node process (`--expose-gc`, 8 GiB heap) so memory figures hold only
 * that engine's index. The child's stdout is sent to our stderr, keeping our stdout for the report.
 * Resolves to a failure outcome, never rejects, when the child crashes or exceeds `timeoutMs`.
 */
export function runEngineProcess(job: MeasurementJob, timeoutMs: number): Promise<MeasurementOutcome> {
  return forkMeasurement<MeasurementOutcome>(entry, job, {
    timeoutMs,
    execArgv: ['--expose-gc', '--max-old-space-size=8192'],
    fail: (error) => ({ engine: job.engine, corpusName: job.corpusName, error }),
  });
}
