import { describe, expect, it } from 'vitest';
import type { Answer } from '../../src/search/answer.ts';
import { AnswerCache } from '../../src/search/answer-cache.ts';

const answer = (query: string): Answer => ({ query, results: [], hasMore: false, assurance: 'none' });

describe('AnswerCache', () => {
  it('forgets the least recently used answer first', () => {
    const cache = new AnswerCache(2);
    cache.set('a', answer('a'));
    cache.set('b', answer('b'));
    expect(cache.get('a')?.query).toBe('a');
    cache.set('c', answer('c'));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.query).toBe('a');
    expect(cache.get('c')?.query).toBe('c');
    expect(cache.size).toBe(2);
  });

  it('hands out answers no caller can change', () => {
    const cache = new AnswerCache();
    cache.set('q', { query: 'q', results: [], hasMore: true, assurance: 'none' });
    const shared = cache.get('q')!;
    expect(() => {
      (shared as { hasMore: boolean }).hasMore = false;
    }).toThrow(TypeError);
    expect(() => (shared.results as unknown[]).push(1)).toThrow(TypeError);
  });
});
