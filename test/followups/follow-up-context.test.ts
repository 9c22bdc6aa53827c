import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../src/corpus/load-corpus.ts';
import { followUpSearch, storyNames } from '../../src/followups/follow-up-context.ts';
import { Engine } from '../../src/search/engine.ts';

// The bundled seed articles: the follow-up set's seed pairs, asked as the bot asks them.
let engine: Engine;
beforeAll(async () => {
  engine = Engine.build(await loadCorpus(new URL('../../corpus/', import.meta.url).pathname));
});

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';

function answerOf(search: ReturnType<typeof followUpSearch>) {
  return engine.answer(search.question, {
    limit: 3,
    ...(search.articleId ? { articleId: search.articleId } : {}),
  });
}

describe('followUpSearch', () => {
  it('answers "they" from the earlier story: what the smugglers threatened to do', () => {
    const earlier = { question: 'who pulled a gun on the teteghem mayor?', article: TETEGHEM };
    const search = followUpSearch(
      'what did they threaten to do to the reporter with him?',
      earlier,
      engine.article(TETEGHEM) ?? null,
    );
    expect(search.articleId).toBe(TETEGHEM);
    const passages = answerOf(search).results.map((result) => result.passage);
    expect(passages.some((passage) => passage.includes('threatened to rape the reporter'))).toBe(true);
  });

  it('names the story when expanding, from its headline and the earlier question', () => {
    const names = storyNames(
      { question: 'What does Franck Dhersin call the smugglers?', article: TETEGHEM },
      engine.article(TETEGHEM)!,
    );
    expect(names).toContain('Franck Dhersin');
    const expanded = followUpSearch(
      'how long have they been in the region?',
      { question: 'What does Franck Dhersin call the smugglers?', article: TETEGHEM },
      engine.article(TETEGHEM)!,
      'expand',
    );
    expect(expanded.articleId).toBeUndefined();
    expect(expanded.question).toContain('Franck Dhersin');
  });

  it('asks the follow-up as it is when its story has left the archive', () => {
    expect(
      followUpSearch('who voted against?', { question: 'How did the FOMC vote?', article: 'gone' }, null),
    ).toEqual({ question: 'who voted against?' });
  });

  it('falls back to the archive, names added, when the story holds none of its words', () => {
    const search = followUpSearch(
      'and on the dogs?',
      { question: 'What did the smugglers do?', article: TETEGHEM },
      engine.article(TETEGHEM)!,
    );
    expect(answerOf(search).results).toEqual([]);
    expect(search.fallback?.articleId).toBeUndefined();
    expect(search.fallback?.question.startsWith('and on the dogs?')).toBe(true);
  });
});
