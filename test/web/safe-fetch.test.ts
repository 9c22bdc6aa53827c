import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/web/address-policy.ts';
import { FetchRefusedError } from '../../src/web/fetch-refused.ts';
import { HTML_TYPES, safeFetch, USER_AGENT } from '../../src/web/safe-fetch.ts';
import { type LocalWebServer, redirect, serve, startLocalWebServer } from '../support/local-web-server.ts';

const PAGE = '<!doctype html><html><head><title>t</title></head><body><p>Hello.</p></body></html>';

let site: LocalWebServer;
let elsewhere: LocalWebServer;
/** The test site is trusted as if it were public; every other private address is not. */
let policy: { allowPrivate: false; trustedOrigins: string[]; accept: readonly string[] };

async function refusal(promise: Promise<unknown>): Promise<FetchRefusedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof FetchRefusedError) return error;
    throw error;
  }
  throw new Error('expected the fetch to be refused');
}

beforeAll(async () => {
  elsewhere = await startLocalWebServer({ '/secret': serve('internal admin page', 'text/html') });
  site = await startLocalWebServer({
    '/page': serve(PAGE, 'text/html; charset=utf-8', { etag: '"v1"' }),
    '/to-loopback': redirect(`${elsewhere.origin}/secret`),
    '/to-localhost': redirect(`http://localhost:${new URL(elsewhere.origin).port}/secret`),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/to-page': redirect('/page', 301),
    '/loop': redirect('/loop'),
    '/image': serve(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png'),
    '/gone': (_req, res) => res.writeHead(410, 'Gone').end(),
    '/conditional': (req, res) => {
      if (req.headers['if-none-match'] === '"v1"') res.writeHead(304).end();
      else res.writeHead(200, { 'content-type': 'text/html', etag: '"v1"' }).end(PAGE);
    },
    '/huge': (_req, res) => {
      // 50 MB, streamed without a Content-Length, as a hostile server would.
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      let sent = 0;
      const more = (): void => {
        while (sent < 50) {
          sent++;
          if (!res.write(chunk)) {
            res.once('drain', more);
            return;
          }
        }
        res.end();
      };
      res.on('close', () => {
        sent = 50;
      });
      more();
    },
    '/huge-declared': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
      res.write('<html>');
    },
    '/bomb': serve(gzipSync(Buffer.alloc(60 * 1024 * 1024)), 'text/html', { 'content-encoding': 'gzip' }),
    '/gzipped': serve(gzipSync(Buffer.from(PAGE)), 'text/html', { 'content-encoding': 'gzip' }),
    '/slow-body': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(timer));
    },
    '/no-answer': () => undefined,
  });
  policy = { allowPrivate: false, trustedOrigins: [site.origin], accept: HTML_TYPES };
});

afterAll(async () => {
  await site.close();
  await elsewhere.close();
});

describe('safeFetch', () => {
  it('fetches a page, naming the bot in its User-Agent, and returns its validators', async () => {
    const fetched = await safeFetch(site.url('/page'), policy);
    expect(fetched.notModified).toBe(false);
    if (fetched.notModified) return;
    expect(Buffer.from(fetched.body).toString()).toBe(PAGE);
    expect(fetched).toMatchObject({ mediaType: 'text/html', charset: 'utf-8', etag: '"v1"' });
    expect(site.requests.at(-1)?.headers['user-agent']).toBe(USER_AGENT);
    expect(USER_AGENT).toMatch(/^NewsdeskBot\//);
  });

  it('follows a redirect within the allowed addresses and reports the final URL', async () => {
    const fetched = await safeFetch(site.url('/to-page'), policy);
    expect(fetched.url).toBe(site.url('/page'));
  });

  it('decompresses a gzipped page', async () => {
    const fetched = await safeFetch(site.url('/gzipped'), policy);
    expect(fetched.notModified || Buffer.from(fetched.body).toString()).toBe(PAGE);
  });

  it('refuses a redirect to 127.0.0.1 when private addresses are not allowed', async () => {
    const error = await refusal(safeFetch(site.url('/to-loopback'), policy));
    expect(error.code).toBe('private-address');
    expect(error.message).toBe(
      '127.0.0.1 leads to 127.0.0.1, a private, local or reserved address; the bot only fetches from the public internet.',
    );
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('refuses a redirect to a name that resolves to a loopback address (checked after DNS)', async () => {
    const error = await refusal(safeFetch(site.url('/to-localhost'), policy));
    expect(error.code).toBe('private-address');
    expect(error.message).toMatch(/^localhost leads to (127\.0\.0\.1|::1), a private/);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('refuses the cloud metadata address without connecting to it', async () => {
    const error = await refusal(safeFetch(site.url('/to-metadata'), policy));
    expect(error.code).toBe('private-address');
    expect(error.message).toContain('169.254.169.254');
  });

  it('refuses private and loopback links given directly, whatever their spelling', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://0x7f000001/',
      'http://[::1]/',
      'http://10.0.0.8/',
      'http://[::ffff:192.168.1.1]/',
      'http://[::127.0.0.1]/',
      'http://[::a9fe:a9fe]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[::ffff:0:127.0.0.1]/',
    ]) {
      const error = await refusal(safeFetch(url, { ...policy, trustedOrigins: [] }));
      expect(error.code, url).toBe('private-address');
    }
  });

  it('follows the same redirect to 127.0.0.1 when FETCH_ALLOW_PRIVATE is on', async () => {
    const fetched = await safeFetch(site.url('/to-loopback'), { ...policy, allowPrivate: true });
    expect(fetched.url).toBe(`${elsewhere.origin}/secret`);
  });

  it('refuses links that are not http(s) and links with credentials', async () => {
    expect((await refusal(safeFetch('file:///etc/passwd', policy))).message).toBe(
      'Only http and https links can be fetched, not file:',
    );
    expect((await refusal(safeFetch('ftp://example.com/a', policy))).code).toBe('scheme');
    expect((await refusal(safeFetch('not a link', policy))).code).toBe('bad-url');
    expect((await refusal(safeFetch('http://user:pw@example.com/', policy))).code).toBe('bad-url');
  });

  it('stops after 5 redirects', async () => {
    const error = await refusal(safeFetch(site.url('/loop'), policy));
    expect(error).toMatchObject({
      code: 'too-many-redirects',
      message: 'The link redirects more than 5 times.',
    });
  });

  it('refuses a 50 MB body at 5 MB, streamed or declared', async () => {
    for (const path of ['/huge', '/huge-declared']) {
      const error = await refusal(safeFetch(site.url(path), policy));
      expect(error, path).toMatchObject({ code: 'too-large', message: 'The page is larger than 5 MB.' });
    }
  });

  it('refuses a gzip bomb at 5 MB decompressed', async () => {
    const error = await refusal(safeFetch(site.url('/bomb'), policy));
    expect(error).toMatchObject({ code: 'too-large', message: 'The page is larger than 5 MB.' });
  });

  it('gives up on a slow server at the time limit', async () => {
    for (const path of ['/slow-body', '/no-answer']) {
      const error = await refusal(safeFetch(site.url(path), { ...policy, timeoutMs: 600 }));
      expect(error, path).toMatchObject({
        code: 'timeout',
        message: 'The site did not answer in full within 0.6 s.',
      });
    }
  });

  it('refuses a content type it was not asked for', async () => {
    const error = await refusal(safeFetch(site.url('/image'), policy));
    expect(error).toMatchObject({
      code: 'content-type',
      message: 'The link serves image/png, not text/html or application/xhtml+xml.',
    });
  });

  it('refuses an error status in plain words', async () => {
    const error = await refusal(safeFetch(site.url('/gone'), policy));
    expect(error).toMatchObject({ code: 'http-status', message: 'The site answered HTTP 410 (Gone).' });
  });

  it('sends the validators it is given and reports a 304', async () => {
    const fetched = await safeFetch(site.url('/conditional'), { ...policy, etag: '"v1"' });
    expect(fetched.notModified).toBe(true);
  });
});

describe('isPublicAddress', () => {
  it('accepts ordinary public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it('refuses loopback, private, link-local, metadata, CGNAT, reserved and embedded-private addresses', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::127.0.0.1',
      '::7f00:1',
      '::a9fe:a9fe',
      '::169.254.169.254',
      '::8.8.8.8',
      '::ffff:0:7f00:1',
      '2002:7f00:1::',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});
