import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Article } from '../../src/corpus/article.ts';
import { loadCorpus, makeCorpus } from '../../src/corpus/load-corpus.ts';
import { correctionOf } from '../../src/factcheck/correction.ts';
import { renderCorrection, renderCorrections, shortDiff } from '../../src/interactions/render/correction.ts';
import { finalizeReply, payloadViolations } from '../../src/interactions/render/payload.ts';
import { Engine } from '../../src/search/engine.ts';

const TETEGHEM = 'teteghem-mayor-threatened-with-gun';

/** The paragraph `citation` as an answer served by `engine` quoted it. */
function cited(engine: Engine, citation: string) {
  const found = engine.passage(citation)!;
  return { citation, articleId: found.article.id, text: found.passage.text };
}

describe('GIVEN the seed corpus before and after an edit', () => {
  let articles: Article[];
  let before: Engine;
  const rebuilt = (edit: (articles: Article[]) => Article[]) =>
    Engine.build(makeCorpus(edit(structuredClone(articles))));

  beforeAll(async () => {
    articles = (await loadCorpus('corpus')).articles;
    before = Engine.build(makeCorpus(articles));
  });

  it('finds nothing to correct in an unchanged paragraph', () => {
    expect(
      correctionOf(
        cited(before, `${TETEGHEM}#5`),
        rebuilt((a) => a),
      ),
    ).toBeNull();
  });

  it('gives the word diff of a paragraph changed in place, the old words first', () => {
    const edited = rebuilt((all) => {
      const passage = all.find((a) => a.id === TETEGHEM)!.passages[4]!;
      passage.text = `${passage.text.replace('$18,000', '$16,000')} He arrived last week.`;
      return all;
    });
    const correction = correctionOf(cited(before, `${TETEGHEM}#5`), edited);
    expect(correction).toMatchObject({ kind: 'changed', newCitation: `${TETEGHEM}#5` });
    const diff = correction?.kind === 'changed' ? correction.diff : [];
    expect(diff.filter((part) => part.op !== 'same')).toEqual([
      { op: 'dropped', text: '$18,000' },
      { op: 'added', text: '$16,000' },
      { op: 'added', text: 'He arrived last week.' },
    ]);
    expect(shortDiff(diff)[0]).toEqual({ op: 'same', text: '… said he had spent over' });
    const payload = finalizeReply(renderCorrection(correction!));
    expect(payloadViolations(payload)).toEqual([]);
    expect(payload.content).toContain('~~$18,000~~ __$16,000__');
  });

  it('follows a paragraph that moved when one was inserted above it', () => {
    const edited = rebuilt((all) => {
      const article = all.find((a) => a.id === TETEGHEM)!;
      const inserted = { ...article.passages[0]!, text: 'A new opening paragraph was added by the editors.' };
      article.passages = [inserted, ...article.passages].map((p, index) => ({
        ...p,
        index,
        paragraph: index + 1,
        id: `${TETEGHEM}#${index + 1}`,
      }));
      return all;
    });
    expect(correctionOf(cited(before, `${TETEGHEM}#5`), edited)).toMatchObject({
      kind: 'changed',
      newCitation: `${TETEGHEM}#6`,
      diff: [{ op: 'same' }],
    });
  });

  it('says removed when the article or the paragraph is gone', () => {
    const withoutArticle = rebuilt((all) => all.filter((a) => a.id !== TETEGHEM));
    expect(correctionOf(cited(before, `${TETEGHEM}#5`), withoutArticle)).toEqual({
      kind: 'removed',
      citation: `${TETEGHEM}#5`,
    });
    const withoutParagraph = rebuilt((all) => {
      const article = all.find((a) => a.id === TETEGHEM)!;
      article.passages = article.passages.filter((p) => p.paragraph !== 5);
      return all;
    });
    expect(correctionOf(cited(before, `${TETEGHEM}#5`), withoutParagraph)?.kind).toBe('removed');
    expect(renderCorrection({ kind: 'removed', citation: `${TETEGHEM}#5` }).content).toContain(
      'has been removed from the coverage',
    );
  });

  it('renders the example of docs/operations.md exactly, and several corrections of one answer in one reply', async () => {
    const edited = rebuilt((all) => {
      const passage = all.find((a) => a.id === TETEGHEM)!.passages[4]!;
      passage.text = passage.text.replace('$18,000', '$16,000');
      return all;
    });
    const changed = correctionOf(cited(before, `${TETEGHEM}#5`), edited)!;
    const article = edited.article(TETEGHEM)!;
    const manual = await readFile('docs/operations.md', 'utf8');
    const example = /\n## Corrections followed\n[\s\S]*?\n```\n([\s\S]*?)\n```/.exec(manual)?.[1];
    expect(finalizeReply(renderCorrection(changed, article)).content).toBe(example);

    const removed = { kind: 'removed', citation: `${TETEGHEM}#2` } as const;
    const both = finalizeReply(
      renderCorrections([{ correction: changed, article }, { correction: removed }]),
    );
    expect(payloadViolations(both)).toEqual([]);
    expect(both.content).toContain('~~$18,000~~ __$16,000__');
    expect(both.content).toContain(`\`${TETEGHEM}#2\`, has been removed from the coverage`);
  });
});
