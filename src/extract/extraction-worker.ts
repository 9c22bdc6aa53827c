// The extraction worker thread: reads the article in each page it is sent (`page-extractor.ts`), one at
// a time, so that a page that takes long to read holds up only this thread, which can be ended.
import { parentPort } from 'node:worker_threads';
import { extractArticle, NotAnArticleError } from './extract-article.ts';
import type { ExtractionReply, ExtractionRequest } from './extraction-protocol.ts';

const port = parentPort;
if (!port) throw new Error('extraction-worker.ts runs on a worker thread (see page-extractor.ts)');

// The libraries are loaded (over a second on a busy machine) before the first page's time starts.
try {
  extractArticle('<html><body><p>warm-up</p></body></html>');
} catch {
  // Not an article, as expected: linkedom and Readability are loaded now.
}
port.postMessage({ ready: true } satisfies ExtractionReply);

port.on('message', (request: ExtractionRequest) => {
  let reply: ExtractionReply;
  try {
    reply = { id: request.id, article: extractArticle(request.html, request.pageUrl, request.bounds) };
  } catch (error) {
    const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
    reply = {
      id: request.id,
      failure: {
        name: error instanceof Error ? error.name : 'Error',
        code: typeof code === 'string' ? code : undefined,
        message: error instanceof Error ? error.message : String(error),
        detail: error instanceof NotAnArticleError ? error.detail : undefined,
      },
    };
  }
  port.postMessage(reply);
});
