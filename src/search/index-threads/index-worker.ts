// Worker thread entry: holds one engine's index and answers the main thread's searches (or, for a
// reload, only reads the corpus and shares it). The index (hundreds of MB of small objects at scale)
// lives in this thread's heap, so building it, and freeing it when the worker ends, costs the main
// thread no garbage-collection pauses.
import { parentPort, workerData } from 'node:worker_threads';
import type { Corpus } from '../../corpus/article.ts';
import { setCorpusLimits } from '../../corpus/corpus-limits.ts';
import { CorpusError, loadCorpus } from '../../corpus/load-corpus.ts';
import { openSharedCorpus, passageCount, shareCorpus } from '../../corpus/shared-corpus.ts';
import { loadLanguageModelWhenNeeded, prepareEntities } from '../../text/entities.ts';
import { Engine } from '../engine.ts';
import { corpusOnDisk, IndexCache } from '../index-cache/index-cache.ts';
import { encodePostings, fitPostings, readPostings } from '../postings/posting-codec.ts';
import { collectGarbage, collectingEvery } from './collect-garbage.ts';
import type {
  CorpusMessage,
  IndexReply,
  IndexRequest,
  IndexWorkerData,
  IndexWorkerStatus,
} from './index-worker-protocol.ts';
import { threadMemory } from './thread-memory.ts';

const data = workerData as IndexWorkerData;
setCorpusLimits(data.corpusLimits);
/**
 * How often a reload's reading or building worker collects its garbage (see `collect-garbage.ts`): a
 * full collection of its heap takes tens of milliseconds, on its own thread.
 */
const COLLECT_EVERY_MS = 1000;
const report = (status: IndexWorkerStatus) => parentPort?.postMessage(status);

function corpusMessage(): Promise<Corpus> {
  return new Promise((resolve) => {
    parentPort?.once('message', (message: CorpusMessage) => resolve(openSharedCorpus(message.corpus)));
  });
}

/**
 * Reads and validates the corpus here and shares it with the main thread: the garbage of parsing a
 * large corpus then grows this thread's heap, which ends with the thread, instead of the serving
 * thread's, which would keep it. An invalid corpus is reported with every problem.
 */
async function readCorpus(): Promise<void> {
  let read: Corpus;
  try {
    // The garbage of parsing (each file's bytes and lines) collected as it goes, not left to pile up.
    read = await loadCorpus(data.corpusPath, { onProgress: collectingEvery(COLLECT_EVERY_MS) });
  } catch (error) {
    if (error instanceof CorpusError) report({ kind: 'refused', problems: error.problems });
    throw error;
  }
  collectGarbage();
  report({ kind: 'corpus', corpus: (await shareCorpus(read)).shared });
}

type Ready = Extract<IndexWorkerStatus, { kind: 'ready' }>;

async function open(): Promise<{ engine: Engine; status: Ready }> {
  const cache = new IndexCache({
    dir: data.cacheDir,
    settingsFingerprint: data.settingsFingerprint,
    maxBytes: data.cacheMaxBytes,
  });
  const started = performance.now();
  // Before the corpus is read: a file changed meanwhile must not be taken for the one read. (A reload's
  // corpus was read before, by a reading worker: a file changed since only misleads the next start's
  // read-ahead, which `load` checks against the corpus version.)
  const onDisk = await corpusOnDisk(data.corpusPath);
  const arriving = corpusMessage();
  const prefetched = await cache.prefetch(onDisk);
  // The engine needs the language model; loaded while the corpus is still being read, not after.
  prepareEntities();
  const corpus = await arriving;
  const lookup = await cache.load(corpus, prefetched);
  if (lookup.status === 'hit') {
    const { engine, file } = lookup;
    const indexMs = performance.now() - started;
    const cached = { status: 'hit', file } as const;
    return {
      engine,
      status: { kind: 'ready', version: corpus.version, from: 'cache', cache: cached, indexMs, saveMs: 0 },
    };
  }
  // Nothing else runs on this thread yet: the slices are only there to report progress (and, on a
  // worker that builds and ends, to collect the analysis's garbage as it goes).
  const collect = data.handOff ? collectingEvery(COLLECT_EVERY_MS) : () => undefined;
  const engine = await Engine.buildAsync(corpus, {
    sliceMs: 250,
    onProgress: (done, total) => {
      report({ kind: 'progress', done, total });
      collect();
    },
  });
  if (data.handOff) collectGarbage();
  const status: Ready = {
    kind: 'ready',
    version: corpus.version,
    from: 'built',
    cache: lookup,
    indexMs: performance.now() - started,
    saveMs: 0,
  };
  // Saved before serving: once questions arrive, a long serialization would hold them up.
  if (cache.enabled && data.persist) {
    const saving = performance.now();
    try {
      status.savedTo = await cache.save(engine, onDisk.source);
    } catch (error) {
      status.saveError = String(error);
    }
    status.saveMs = performance.now() - saving;
  }
  return { engine, status };
}

/**
 * Serves from the postings a building worker handed over (`IndexWorkerData.postings`), read in place
 * from the shared bytes: a heap as lean as a start from the persisted index. The status says how the
 * index came to be; the building worker's says it better, and the main thread reports that one.
 */
async function openHandedOver(postings: SharedArrayBuffer): Promise<{ engine: Engine; status: Ready }> {
  const started = performance.now();
  const arriving = corpusMessage();
  prepareEntities();
  const corpus = await arriving;
  const stored = readPostings(new Uint8Array(postings));
  // Counted without making every passage of the shared corpus, as a start from the cache does.
  const engine = Engine.fromPostings(corpus, fitPostings(stored, corpus.articles.map(passageCount)));
  // Before it serves: what restoring left behind goes now, not beside the old workers.
  collectGarbage();
  const indexMs = performance.now() - started;
  const cache = { status: 'miss', reason: 'disabled' } as const;
  return {
    engine,
    status: { kind: 'ready', version: corpus.version, from: 'built', cache, indexMs, saveMs: 0 },
  };
}

/** The postings of `engine` in one shared buffer, as `encodePostings` lays them out. */
function sharedPostings(engine: Engine): SharedArrayBuffer {
  const chunks = encodePostings(engine.postings);
  const shared = new SharedArrayBuffer(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  const bytes = new Uint8Array(shared);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return shared;
}

function serve(engine: Engine): void {
  const replies = new Int32Array(data.replies);
  data.port.on('message', (request: IndexRequest) => {
    let reply: IndexReply;
    try {
      reply =
        request.method === 'answer'
          ? { id: request.id, ok: true, answer: engine.answer(request.question, request.options) }
          : request.method === 'timeline'
            ? { id: request.id, ok: true, timeline: engine.timeline(request.topic, request.options) }
            : request.method === 'memory'
              ? { id: request.id, ok: true, memory: threadMemory() }
              : {
                  id: request.id,
                  ok: true,
                  articleIds: engine[request.method](request.question, request.limit).map((a) => a.id),
                };
    } catch (error) {
      reply = { id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    data.port.postMessage(reply);
    Atomics.add(replies, 0, 1);
    Atomics.notify(replies, 0);
  });
}

try {
  if (data.corpusFrom === 'path') {
    await readCorpus();
  } else if (data.handOff) {
    // Only the workers that serve answer questions: no language model here.
    loadLanguageModelWhenNeeded();
    const { engine, status } = await open();
    report({ ...status, postings: sharedPostings(engine) });
  } else if (data.postings) {
    const opened = await openHandedOver(data.postings);
    serve(opened.engine);
    report(opened.status);
  } else {
    const opened = await open();
    serve(opened.engine);
    report(opened.status);
  }
} catch (error) {
  report({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
