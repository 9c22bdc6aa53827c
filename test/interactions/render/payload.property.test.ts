import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commands } from '../../../commands/index.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Article } from '../../../src/corpus/article.ts';
import { makeCorpus, parseArticleFile } from '../../../src/corpus/load-corpus.ts';
import { createDispatchContext } from '../../../src/interactions/context.ts';
import { dispatchInteraction } from '../../../src/interactions/dispatch.ts';
import type { AutocompleteChoice, ReplyPayload, Responder } from '../../../src/interactions/incoming.ts';
import { renderPassageInContext } from '../../../src/interactions/render/passage.ts';
import {
  choicesViolations,
  finalizeChoices,
  finalizeReply,
  payloadViolations,
} from '../../../src/interactions/render/payload.ts';
import { renderReloadOutcome } from '../../../src/interactions/render/reload.ts';
import { renderSources } from '../../../src/interactions/render/sources.ts';
import { renderTimeline } from '../../../src/interactions/render/timeline.ts';
import { memoryLogger } from '../../../src/logging/logger.ts';
import type { AnswerResult } from '../../../src/search/answer.ts';
import { Engine } from '../../../src/search/engine.ts';
import { renderAnswer, renderNoCoverage } from '../../support/question-reply.ts';

/** Pieces that break naive renderers: every mention form, markdown, escapes, long words, astral characters. */
const hostile = fc.constantFrom(
  '@everyone',
  '@here',
  '@EVERYONE',
  '<@123456789012345678>',
  '<@!123456789012345678>',
  '<@&123>',
  '<#123>',
  '</ask:123>',
  '**',
  '__',
  '*',
  '_',
  '~~',
  '`',
  '```',
  '||',
  '> ',
  '# ',
  '-# ',
  '- ',
  '1. ',
  '[x](https://evil.example)',
  '\\',
  '\n',
  '. ',
  '? ',
  '😀',
  '\u200b',
  '\u0000',
  '\u202e',
  'e\u0301',
  'x'.repeat(300),
);
const text = (maxLength: number) =>
  fc
    .array(fc.oneof({ weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) }, hostile), {
      maxLength: 60,
    })
    .map((parts) => parts.join(''))
    .map((joined) => joined.slice(0, maxLength));
const nonEmpty = (maxLength: number) => text(maxLength).map((value) => (value.trim() === '' ? 'x' : value));
const id = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,90}$/);
const url = fc.oneof(
  fc.constant(null),
  fc.webUrl(),
  fc.constant('javascript:alert(1)'),
  fc.constant('not a url'),
);

const meta = fc.record({
  title: nonEmpty(400),
  publisher: fc.option(text(300), { nil: null }),
  url,
  published: fc.option(text(40), { nil: null }),
  author: fc.option(text(300), { nil: null }),
  language: fc.constant(null),
});

const result: fc.Arbitrary<AnswerResult> = fc
  .record({
    meta,
    article: id,
    paragraph: fc.integer({ min: 1, max: 500 }),
    quote: text(3000),
    passage: text(5000),
    highlights: fc.array(
      fc.record({ start: fc.integer({ min: -5, max: 3100 }), end: fc.integer({ min: -5, max: 3100 }) }),
      {
        maxLength: 12,
      },
    ),
    score: fc.double({ noNaN: true }),
    alsoReportedBy: fc.array(
      id.map((value) => `${value}#1`),
      { maxLength: 8 },
    ),
  })
  .map(({ meta: m, article, paragraph, ...rest }) => ({
    ...m,
    ...rest,
    article,
    paragraph,
    citation: `${article}#${paragraph}`,
  }));

const article: fc.Arbitrary<Article> = fc
  .record({ meta, id, passages: fc.array(text(2500), { minLength: 1, maxLength: 5 }) })
  .map(({ meta: m, id: articleId, passages }) => ({
    ...m,
    id: articleId,
    source: `${articleId}.md`,
    passages: passages.map((passageText, index) => ({
      id: `${articleId}#${index + 1}`,
      articleId,
      paragraph: index + 1,
      index,
      text: passageText,
    })),
  }));

const ok = (payload: ReplyPayload) => expect(payloadViolations(finalizeReply(payload))).toEqual([]);

describe('for arbitrary corpus text and questions, every rendered payload is within Discord limits and pings nobody', () => {
  it('answers', () => {
    fc.assert(
      fc.property(
        fc.array(result, { minLength: 1, maxLength: 5 }),
        text(1000),
        fc.boolean(),
        fc.integer({ min: 0, max: 995 }),
        fc.option(article, { nil: null }),
        (results, question, hasMore, offset, source) => {
          ok(
            renderAnswer(
              { query: question, results, hasMore, assurance: results.length > 0 ? 'answer' : 'none' },
              { question, limit: 5, offset, source },
            ),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it('closest coverage, with the stories of "Which story?" and their menu', () => {
    const story = fc.record({
      article: id,
      title: text(400),
      publisher: fc.option(text(300), { nil: null }),
      published: fc.option(text(40), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(result, { minLength: 1, maxLength: 5 }),
        fc.array(story, { minLength: 2, maxLength: 5 }),
        text(1000),
        fc.boolean(),
        (results, stories, question, isPrivate) => {
          const reply = renderAnswer(
            { query: question, results, hasMore: true, assurance: 'closest', stories },
            { question, limit: 5, offset: 0, source: null, since: '2003', private: isPrivate },
          );
          ok(reply);
          expect(reply.content).toMatch(/^I found nothing that clearly answers this\. Closest coverage:/);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("answers with what time words did and each fact's earliest and latest report", () => {
    const ref = fc.record({
      citation: id.map((value) => `${value}#1`),
      publisher: fc.option(text(300), { nil: null }),
      published: text(40),
    });
    const time = fc.record(
      {
        named: fc.record(
          { label: text(60), found: fc.boolean(), closest: text(60) },
          { requiredKeys: ['label', 'found'] },
        ),
        newestFirst: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(result, fc.option(fc.record({ earliest: ref, latest: ref }), { nil: undefined })), {
          minLength: 1,
          maxLength: 5,
        }),
        text(1000),
        time,
        fc.integer({ min: 0, max: 995 }),
        (pairs, question, when, offset) => {
          const results = pairs.map(([r, reported]) => (reported ? { ...r, reported } : r));
          ok(
            renderAnswer(
              { query: question, results, hasMore: true, time: when, assurance: 'answer' },
              { question, limit: 5, offset, source: null, since: 'x'.repeat(40), until: '2003' },
            ),
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('timelines, every page', () => {
    const entry = result.map(
      ({
        citation,
        article: a,
        title,
        publisher,
        url: u,
        published,
        author,
        language,
        quote,
        highlights,
      }) => ({
        citation,
        article: a,
        title,
        publisher,
        url: u,
        published,
        author,
        language,
        quote,
        highlights,
      }),
    );
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 30 }),
        fc.array(entry, { maxLength: 12 }),
        text(300),
        fc.integer({ min: -2, max: 8 }),
        fc.record({ since: text(40), until: text(40) }, { requiredKeys: [] }),
        (dated, undated, topic, page, view) => {
          ok(renderTimeline({ topic, dated, undated }, page, view));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('"no coverage found"', () => {
    fc.assert(
      fc.property(
        text(1000),
        fc.array(article, { maxLength: 5 }),
        fc.option(article, { nil: null }),
        (question, closest, source) => {
          ok(renderNoCoverage(question, closest, source));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a passage in context', () => {
    fc.assert(
      fc.property(article, fc.nat(), (found, focusSeed) => {
        const focus = focusSeed % found.passages.length;
        ok(renderPassageInContext({ article: found, passages: found.passages, focus }, 'Passage:'));
      }),
      { numRuns: 100 },
    );
  });

  it('source listings', () => {
    fc.assert(
      fc.property(
        fc.array(article, { maxLength: 25 }),
        fc.integer({ min: -2, max: 5 }),
        text(80),
        (articles, page, query) => {
          ok(renderSources(articles, page, query, articles.length + 3));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refused reloads', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ file: text(200), line: fc.nat(), message: text(400) }), { maxLength: 60 }),
        fc.stringMatching(/^[0-9a-f]{12,64}$/),
        (problems, version) => {
          ok(
            renderReloadOutcome({ status: 'refused', problems, message: 'refused', version, durationMs: 3 }),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it('autocomplete choices', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: text(300), value: text(150) }), { maxLength: 40 }),
        (choices: AutocompleteChoice[]) => {
          expect(choicesViolations(finalizeChoices(choices))).toEqual([]);
        },
      ),
      { numRuns: 100 },
    );
  });
});

/** Keeps what the dispatcher sent, whichever way it sent it. */
class RecordingResponder implements Responder {
  readonly payloads: ReplyPayload[] = [];
  readonly choices: AutocompleteChoice[][] = [];
  async reply(payload: ReplyPayload) {
    this.payloads.push(payload);
  }
  async defer() {}
  async deferUpdate() {}
  async editReply(payload: ReplyPayload) {
    this.payloads.push(payload);
  }
  async update(payload: ReplyPayload) {
    this.payloads.push(payload);
  }
  async autocomplete(choices: AutocompleteChoice[]) {
    this.choices.push(choices);
  }
}

describe('through the real engine and dispatcher', () => {
  it('for arbitrary articles and questions, /ask, /timeline, /sources, /cite and their autocompletes stay within every limit', async () => {
    const config = loadConfig({ RATE_LIMIT_QUESTIONS: '1000' });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ title: nonEmpty(200), body: fc.array(nonEmpty(1500), { minLength: 1, maxLength: 4 }) }),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        text(400),
        async (files, question) => {
          const articles = files.flatMap((file, index) => {
            try {
              return [
                parseArticleFile(
                  `a${index}.txt`,
                  `${file.title.replace(/\n/g, ' ')}\n\n${file.body.join('\n\n')}\n`,
                ),
              ];
            } catch {
              return []; // an invalid article is refused by the loader; not what this property is about
            }
          });
          fc.pre(articles.length > 0);
          const engine = Engine.build(makeCorpus(articles));
          const ctx = createDispatchContext({
            commands,
            library: { engine, loadedAt: new Date() },
            config,
            logger: memoryLogger(),
          });
          const responder = new RecordingResponder();
          const base = { userId: '1', userName: 'u', guildId: '2', memberRoleIds: [], memberPermissions: 0n };
          const citation = engine.articles()[0]!.passages[0]?.id ?? 'a0#1';
          await dispatchInteraction(
            {
              ...base,
              id: '1',
              kind: 'chat-input',
              commandName: 'ask',
              options: { question: question.trim() || '?' },
            },
            responder,
            ctx,
          );
          await dispatchInteraction(
            { ...base, id: '2', kind: 'chat-input', commandName: 'cite', options: { id: citation } },
            responder,
            ctx,
          );
          await dispatchInteraction(
            {
              ...base,
              id: '5',
              kind: 'chat-input',
              commandName: 'timeline',
              options: { topic: question.trim().slice(0, 200) || '?' },
            },
            responder,
            ctx,
          );
          await dispatchInteraction(
            {
              ...base,
              id: '6',
              kind: 'chat-input',
              commandName: 'sources',
              options: { query: question.trim().slice(0, 80) },
            },
            responder,
            ctx,
          );
          await dispatchInteraction(
            {
              ...base,
              id: '3',
              kind: 'autocomplete',
              commandName: 'cite',
              options: { id: question },
              focused: { name: 'id', value: question },
            },
            responder,
            ctx,
          );
          await dispatchInteraction(
            {
              ...base,
              id: '4',
              kind: 'autocomplete',
              commandName: 'ask',
              options: { source: question },
              focused: { name: 'source', value: question },
            },
            responder,
            ctx,
          );
          expect(responder.payloads).toHaveLength(4);
          for (const payload of responder.payloads) expect(payloadViolations(payload)).toEqual([]);
          for (const choices of responder.choices) expect(choicesViolations(choices)).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });
});
