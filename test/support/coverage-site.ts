import { readFile } from 'node:fs/promises';
import type { Route } from './local-web-server.ts';
import { type LocalWebServer, serve, startLocalWebServer } from './local-web-server.ts';

const FIXTURES = 'test/fixtures/web';

/**
 * A news site on 127.0.0.1 serving the fixture pages and feeds: three articles, a section front, an
 * RSS feed (ETag and Last-Modified) and an Atom feed (Last-Modified only) that answer 304 to a
 * matching conditional request, and a malformed feed.
 */
export async function startCoverageSite(): Promise<LocalWebServer> {
  const site = await startLocalWebServer();
  const page = async (name: string, charset = 'utf-8') =>
    serve(await readFile(`${FIXTURES}/${name}`), `text/html; charset=${charset}`);
  const feed = async (
    name: string,
    type: string,
    validators: { etag?: string; lastModified: string },
  ): Promise<Route> => {
    const body = (await readFile(`${FIXTURES}/${name}`, 'utf8')).replaceAll('{{origin}}', site.origin);
    return (req, res) => {
      const etagMatches = validators.etag !== undefined && req.headers['if-none-match'] === validators.etag;
      const dateMatches =
        validators.etag === undefined && req.headers['if-modified-since'] === validators.lastModified;
      const headers = {
        'last-modified': validators.lastModified,
        ...(validators.etag ? { etag: validators.etag } : {}),
      };
      if (etagMatches || dateMatches) res.writeHead(304, headers).end();
      else res.writeHead(200, { 'content-type': type, ...headers }).end(body);
    };
  };
  const routes: Record<string, Route> = {
    '/news/dunkirk-shelter': await page('news-article.html'),
    '/boulogne': await page('opengraph-only.html', 'windows-1252'),
    '/harbour': await page('harbour-works.html'),
    '/france': await page('section-front.html'),
    '/feeds/france.rss': await feed('feed.rss.xml', 'application/rss+xml; charset=utf-8', {
      etag: '"rss-v1"',
      lastModified: 'Sat, 28 Nov 2026 18:00:00 GMT',
    }),
    '/feeds/opal.atom': await feed('feed.atom.xml', 'application/atom+xml', {
      lastModified: 'Sat, 28 Nov 2026 18:05:00 GMT',
    }),
    '/feeds/broken.xml': serve(
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Broken</title><item><title>Half',
      'application/rss+xml',
    ),
  };
  for (const [path, route] of Object.entries(routes)) site.routes.set(path, route);
  return site;
}
