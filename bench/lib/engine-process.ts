// Entry point of the child process that measures one engine on one corpus (forked by run-engine-process.ts
// with --expose-gc). It reports one MeasurementOutcome over IPC and exits.
import { findEngineAdapter } from '../engines/registry.ts';
import { measureEngine } from './measure-engine.ts';
import type { MeasurementJob, MeasurementOutcome } from './measurement.ts';

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as MeasurementJob;
  const adapter = findEngineAdapter(job.engine);
  let outcome: MeasurementOutcome;
  try {
    if (!adapter) throw new Error(`unknown engine "${job.engine}"`);
    outcome = await measureEngine(adapter, job);
  } catch (error) {
    outcome = {
      engine: job.engine,
      corpusName: job.corpusName,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  process.send?.(outcome, () => process.exit(0));
}

await main();
