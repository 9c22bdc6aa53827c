import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

function messageOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('loadConfig', () => {
  it('INDEX_CACHE_DIR= (empty) turns the cache off, as .env.example says; unset keeps the default', () => {
    expect(loadConfig({ INDEX_CACHE_DIR: '' }).INDEX_CACHE_DIR).toBe('');
    expect(loadConfig({}).INDEX_CACHE_DIR).toBe('.cache');
  });

  it('other empty values mean "not set"', () => {
    const config = loadConfig({ DISCORD_TOKEN: '', RATE_LIMIT_QUESTIONS: '', CORPUS_PATH: '' });
    expect(config.DISCORD_TOKEN).toBeUndefined();
    expect(config.RATE_LIMIT_QUESTIONS).toBe(5);
    expect(config.CORPUS_PATH).toBe('corpus');
  });

  it('says in plain words which variable is wrong, what it accepts and what was given', () => {
    const message = messageOf({ RATE_LIMIT_QUESTIONS: 'abc', LOG_LEVEL: 'loud', SHARDS: '0' });
    expect(message).toContain('RATE_LIMIT_QUESTIONS must be a whole number from 1 to 1000; got "abc"');
    expect(message).toContain('LOG_LEVEL must be debug, info, warn or error; got "loud"');
    expect(message).toContain('SHARDS must be auto or a whole number from 1 to 64; got "0"');
    expect(message).not.toMatch(/expected|NaN|Invalid input/);
  });

  it('lists a variable once however many rules it breaks', () => {
    const message = messageOf({ MODERATOR_ROLE_IDS: 'abc,def' });
    expect(message.match(/MODERATOR_ROLE_IDS/g)).toHaveLength(1);
    expect(message).toContain('Discord role ids (digits only), separated by commas; got "abc,def"');
  });
});
