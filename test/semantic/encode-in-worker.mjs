// Loads the sentence encoder on a worker thread, as an index worker would, with the network blocked on
// that thread too, and embeds the texts it is given. Worker threads do not inherit tsx's loader: it is
// registered here.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { blockNetwork } = await import('./no-network.ts');
const block = blockNetwork();
const { SentenceEncoder } = await import('../../src/semantic/sentence-encoder.ts');
const encoder = await SentenceEncoder.load();
parentPort.postMessage({ vectors: await encoder.embed(workerData.texts), attempts: block.attempts });
