import { describe, expect, it } from 'vitest';
import { hasLiveMention } from '../../../src/interactions/render/escape.ts';
import { customIds, queryFooter, readQueryState } from '../../../src/interactions/render/query-state.ts';

describe('the question stored in an answer footer', () => {
  it('reads back what was asked, and the source, from the last embed', () => {
    const footer = queryFooter(
      { question: 'who pinged\n@everyone   and <@&123>?', source: 'calais-1' },
      'Results 1–3',
    );
    expect(hasLiveMention(footer)).toBe(false);
    expect(readQueryState([{ title: 'first' }, { footer: { text: footer } }])).toEqual({
      question: 'who pinged @everyone and <@&123>?',
      source: 'calais-1',
    });
  });

  it('is null on a message that holds no question', () => {
    expect(readQueryState([{ footer: { text: 'Page 1 of 2' } }])).toBeNull();
    expect(readQueryState([])).toBeNull();
  });

  it('keeps custom_ids short and self-contained', () => {
    expect(customIds.more(6, 3)).toBe('ask:more:6:3');
    expect(customIds.context('teteghem#2.1')).toBe('ask:ctx:teteghem#2.1');
    expect(customIds.sourcesPage(2, 'x'.repeat(80)).length).toBeLessThanOrEqual(100);
  });
});
