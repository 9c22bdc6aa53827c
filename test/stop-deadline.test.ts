import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';

it('ends a process whose graceful stop never finishes, with a read blocked on a FIFO, by the signal itself', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'newsdesk-stop-'));
  const fifo = path.join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  // A blocked read holds process.exit() itself, so only the signal's default action can end this one.
  const script = `
    import { readFile } from 'node:fs/promises';
    import { enforceStopDeadline } from './src/stop-deadline.ts';
    import { memoryLogger } from './src/logging/logger.ts';
    void readFile(${JSON.stringify(fifo)});
    setInterval(() => undefined, 1000);
    process.once('SIGTERM', (signal) => {
      // The graceful stop never completes: it waits on the blocked read, as a reload would.
      enforceStopDeadline(signal, memoryLogger(), 200);
    });
    process.stdout.write('ready\\n');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await once(child.stdout, 'data');
    const exit = once(child, 'exit');
    child.kill('SIGTERM');
    const result = await Promise.race([exit, sleep(20_000).then(() => 'still running')]);
    expect(result).toEqual([null, 'SIGTERM']);
  } finally {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
});

it('stops once on the first stop signal; a second one changes nothing, and the deadline ends the process by the first', async () => {
  const script = `
    import { stopOnSignals } from './src/stop-deadline.ts';
    import { memoryLogger } from './src/logging/logger.ts';
    setInterval(() => undefined, 1000);
    let stops = 0;
    // A graceful stop that never completes.
    stopOnSignals(memoryLogger(), () => process.stdout.write(\`stop \${++stops}\\n\`), { deadlineMs: 500 });
    process.stdout.write('ready\\n');
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  try {
    await once(child.stdout, 'data');
    const exit = once(child, 'exit');
    child.kill('SIGINT');
    await sleep(100);
    child.kill('SIGTERM');
    const result = await Promise.race([exit, sleep(20_000).then(() => 'still running')]);
    expect(result).toEqual([null, 'SIGINT']);
    expect(stdout).toBe('ready\nstop 1\n');
  } finally {
    child.kill('SIGKILL');
  }
});
