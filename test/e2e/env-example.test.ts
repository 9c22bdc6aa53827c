import { readFile } from 'node:fs/promises';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { EnvSchema, loadConfig } from '../../src/config.ts';

describe('.env.example', () => {
  it('documents every variable the config reads, and nothing else', async () => {
    const documented = Object.keys(parse(await readFile('.env.example', 'utf8'))).sort();
    expect(documented).toEqual(Object.keys(EnvSchema.shape).sort());
  });

  it('is itself a valid configuration (it starts the local console)', async () => {
    const config = loadConfig(parse(await readFile('.env.example', 'utf8')));
    expect(config.DISCORD_TOKEN).toBeUndefined();
    expect(config.CORPUS_PATH).toBe('corpus');
  });
});
