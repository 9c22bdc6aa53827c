import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { Community } from '../../src/community/community.ts';
import { PostgresCommunity } from '../../src/community/postgres-community.ts';
import { serversInstalled, startPostgres, type TestServer } from '../support/servers.ts';
import { storeContract } from './store-contract.ts';

storeContract('SQLite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-contract-'));
  const file = path.join(dir, 'newsdesk.sqlite');
  return {
    open: async () => Community.open({ file }),
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe.skipIf(!serversInstalled())('a real PostgreSQL server', { tags: ['several-hosts'] }, () => {
  let server: TestServer;
  let databases = 0;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(() => server?.remove());

  // Each case gets a database of its own on the one server.
  storeContract('PostgreSQL', async () => {
    databases += 1;
    const name = `contract_${databases}`;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = server.url.replace(/\/postgres$/, `/${name}`);
    return {
      open: async () => new PostgresCommunity({ url }),
      remove: async () => undefined,
    };
  });
});
