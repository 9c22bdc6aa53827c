import { type ChildProcess, fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManagerRelay } from '../../../src/transports/sharding/manager-relay.ts';
import type { ShardStatus } from '../../../src/transports/sharding/protocol.ts';
import { copyOfBundledCorpus, LIGHTHOUSE } from '../../support/temp-corpus.ts';

const SHARD_SCRIPT = fileURLToPath(new URL('./fixtures/shard-process.ts', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

type TestMessage = { type: string; [key: string]: unknown };

/** Resolves with the next message of `type` from a shard process. */
function next(child: ChildProcess, type: string): Promise<TestMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} from shard`)), 20_000);
    const listener = (message: TestMessage) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off('message', listener);
      resolve(message);
    };
    child.on('message', listener);
  });
}

describe('corpus coordination across shard processes', () => {
  let folder: string;
  let cleanup: () => Promise<void>;
  let shards: ChildProcess[];
  let initialVersion: string;

  beforeAll(async () => {
    ({ corpus: folder, cleanup } = await copyOfBundledCorpus());
    const relay = new ManagerRelay({ statusTimeoutMs: 5000 });
    shards = [0, 1].map((id) => {
      const child = fork(SHARD_SCRIPT, [folder, String(id)], { cwd: REPO, execArgv: ['--import', 'tsx'] });
      relay.attach({
        id,
        send: (message) => child.send(message),
        onMessage: (listener) => {
          child.on('message', listener);
          return () => child.off('message', listener);
        },
      });
      return child;
    });
    const ready = await Promise.all(shards.map((child) => next(child, 'test:ready')));
    initialVersion = String(ready[0]!.version);
  });

  afterAll(async () => {
    for (const child of shards ?? []) child.kill();
    await cleanup?.();
  });

  it('starts every shard on the same corpus version', async () => {
    shards[1]!.send({ type: 'test:statuses' });
    const { statuses } = (await next(shards[1]!, 'test:statuses')) as unknown as { statuses: ShardStatus[] };
    expect(statuses.map((status) => [status.shard, status.version])).toEqual([
      [0, initialVersion],
      [1, initialVersion],
    ]);
  });

  it('reloads every shard when one shard reloads a changed corpus', async () => {
    await writeFile(path.join(folder, 'lighthouse.md'), LIGHTHOUSE);
    const remote = next(shards[1]!, 'test:remote-reload');
    shards[0]!.send({ type: 'test:reload' });
    const local = await next(shards[0]!, 'test:reloaded');
    expect(local.status).toBe('reloaded');
    expect(await remote).toMatchObject({ status: 'reloaded', from: 0, version: local.version });

    shards[1]!.send({ type: 'test:ask', question: 'who rescued the stranded kayakers?' });
    expect((await next(shards[1]!, 'test:answer')).articles).toEqual(expect.arrayContaining(['lighthouse']));
    shards[0]!.send({ type: 'test:statuses' });
    const { statuses } = (await next(shards[0]!, 'test:statuses')) as unknown as { statuses: ShardStatus[] };
    expect(statuses.map((status) => status.version)).toEqual([local.version, local.version]);
    expect(statuses.every((status) => status.articles === 4)).toBe(true);
  });

  it('tells no other shard anything when a reload is refused: every shard keeps serving', async () => {
    shards[0]!.send({ type: 'test:statuses' });
    const before = ((await next(shards[0]!, 'test:statuses')) as unknown as { statuses: ShardStatus[] })
      .statuses;
    await writeFile(path.join(folder, 'broken.md'), '---\n---\n');
    shards[0]!.send({ type: 'test:reload' });
    expect((await next(shards[0]!, 'test:reloaded')).status).toBe('refused');
    shards[1]!.send({ type: 'test:statuses' });
    const after = ((await next(shards[1]!, 'test:statuses')) as unknown as { statuses: ShardStatus[] })
      .statuses;
    expect(after.map((status) => status.version)).toEqual(before.map((status) => status.version));
  });
});
