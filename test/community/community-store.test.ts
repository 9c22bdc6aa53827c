import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Community } from '../../src/community/community.ts';
import { questionHash } from '../../src/community/community-store.ts';
import { keepRetention } from '../../src/community/start-community.ts';
import { memoryLogger } from '../../src/logging/logger.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-06-01T12:00:00Z');
const days = (n: number) => new Date(T0.getTime() + n * DAY);

let dir: string;
let community: Community;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'newsdesk-store-'));
  community = Community.open({ file: path.join(dir, 'newsdesk.sqlite'), recordDays: 90 });
});
afterEach(() => {
  community.close();
  rmSync(dir, { recursive: true, force: true });
});

const answer = (at: Date, question = 'who threatened the mayor?') =>
  community.records.recordAnswer({
    guildId: 'g',
    channelId: 'c',
    answeredAt: at,
    question,
    citations: ['teteghem#2', 'calais#7'],
    corpusVersion: 'v1',
  });

describe('GIVEN answers in a real database file', () => {
  it('a member has one vote per answer: a second press changes it, the same press changes nothing', () => {
    const id = answer(T0);
    const vote = (userId: string, helpful: boolean) =>
      community.records.vote({ answerId: id, userId, helpful, at: T0 });
    expect(vote('ann', true)).toBe('recorded');
    expect(community.records.tally(id)).toEqual({ helpful: 1, notHelpful: 0 });
    expect(vote('ann', false)).toBe('changed');
    expect(community.records.tally(id)).toEqual({ helpful: 0, notHelpful: 1 });
    expect(vote('ann', false)).toBe('unchanged');
    expect(vote('bob', false)).toBe('recorded');
    expect(community.records.tally(id)).toEqual({ helpful: 0, notHelpful: 2 });
    const [unhelpful] = community.records.unhelpfulSince(days(-1), 10);
    expect(unhelpful?.notHelpful).toBe(2);
    expect(unhelpful?.answer.citations).toEqual(['teteghem#2', 'calais#7']);
  });

  it('a button press finds its answer by question hash and first citation, then by the message id it learnt', () => {
    const id = answer(T0);
    const lookup = {
      messageId: 'm1',
      questionHash: questionHash('Who threatened  the MAYOR?'),
      firstCitation: 'teteghem#2',
      channelId: 'c',
    };
    expect(community.records.findAnswer(lookup)?.id).toBe(id);
    expect(community.records.findAnswer({ ...lookup, questionHash: 'other', firstCitation: 'x' })?.id).toBe(
      id,
    );
    expect(
      community.records.findAnswer({ ...lookup, messageId: 'm2', firstCitation: 'nothing#1' }),
    ).toBeUndefined();
  });

  it('retention deletes answers (with their votes) and questions without coverage older than RECORD_DAYS, and expired watches', () => {
    const old = answer(days(-91));
    community.records.vote({ answerId: old, userId: 'ann', helpful: false, at: days(-91) });
    const recent = answer(days(-89));
    community.records.vote({ answerId: recent, userId: 'ann', helpful: true, at: days(-89) });
    for (const [question, at] of [
      ['old gap', days(-100)],
      ['new gap', days(-1)],
    ] as const)
      community.records.recordUnanswered({
        guildId: 'g',
        channelId: 'c',
        question,
        askedAt: at,
        corpusVersion: 'v1',
      });
    community.watches.add({
      userId: 'ann',
      guildId: 'g',
      channelId: 'c',
      question: 'expired',
      at: days(-31),
    });
    community.watches.add({ userId: 'ann', guildId: 'g', channelId: 'c', question: 'live', at: days(-29) });

    expect(community.enforceRetention(T0)).toEqual({ answers: 1, unanswered: 1, watches: 1, cited: 0 });
    expect(community.records.answer(old)).toBeUndefined();
    expect(community.records.answer(recent)).toBeDefined();
    expect(community.records.countsSince(days(-365))).toEqual({ answered: 1, unanswered: 1, votes: 1 });
    expect(community.records.unansweredSince(days(-365)).map((q) => q.question)).toEqual(['new gap']);
    expect(community.watches.of('ann', T0).map((w) => w.question)).toEqual(['live']);
  });

  it('retention runs at start and then once a day while the bot runs', () => {
    vi.useFakeTimers();
    try {
      let now = T0;
      answer(days(-89));
      const stop = keepRetention(community, memoryLogger(), () => now);
      expect(community.records.countsSince(days(-365)).answered).toBe(1);
      now = days(2);
      vi.advanceTimersByTime(DAY);
      expect(community.records.countsSince(days(-365)).answered).toBe(0);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a guild sees only its own questions without coverage and unhelpful answers; the operator sees all', () => {
    for (const [guildId, question] of [
      ['g', 'ours'],
      ['other', 'theirs'],
    ] as const) {
      community.records.recordUnanswered({
        guildId,
        channelId: 'c',
        question,
        askedAt: T0,
        corpusVersion: 'v1',
      });
      const id = community.records.recordAnswer({
        guildId,
        channelId: 'c',
        answeredAt: T0,
        question,
        citations: ['a#1'],
        corpusVersion: 'v1',
      });
      community.records.vote({ answerId: id, userId: 'ann', helpful: false, at: T0 });
    }
    expect(community.records.unansweredSince(days(-1), 'g').map((q) => q.question)).toEqual(['ours']);
    expect(community.records.unansweredSince(days(-1)).map((q) => q.question)).toEqual(['ours', 'theirs']);
    expect(community.records.unhelpfulSince(days(-1), 10, 'other').map((u) => u.answer.question)).toEqual([
      'theirs',
    ]);
    expect(community.records.unhelpfulSince(days(-1), 10)).toHaveLength(2);
  });

  it('counts for /about cover only the period asked for', () => {
    answer(days(-8));
    const id = answer(days(-1));
    community.records.vote({ answerId: id, userId: 'ann', helpful: true, at: days(-1) });
    community.records.recordUnanswered({
      guildId: 'g',
      channelId: 'c',
      question: null,
      askedAt: days(-2),
      corpusVersion: 'v1',
    });
    expect(community.records.countsSince(days(-7))).toEqual({ answered: 1, unanswered: 1, votes: 1 });
    // Stored without text (RECORD_QUESTIONS=false): counted, but never shown.
    expect(community.records.unansweredSince(days(-7))).toEqual([]);
  });
});

describe('GIVEN watched questions', () => {
  const add = (userId: string, question: string, at = T0) =>
    community.watches.add({ userId, guildId: 'g', channelId: 'c', question, at });

  it('a member holds at most 10; the same question twice is one watch; another member is not limited by them', () => {
    for (let i = 1; i <= 10; i += 1) expect(add('ann', `question ${i}`).status).toBe('added');
    expect(add('ann', 'question 11')).toEqual({ status: 'limit-reached', limit: 10 });
    expect(add('ann', 'question 3').status).toBe('already-watching');
    expect(add('bob', 'question 1').status).toBe('added');
    const first = community.watches.of('ann', T0)[0];
    expect(first && community.watches.cancel(first.id, 'bob')).toBe(false);
    expect(first && community.watches.cancel(first.id, 'ann')).toBe(true);
    expect(add('ann', 'question 11').status).toBe('added');
  });

  it('a watch expires after 30 days: no longer listed, checked or counted against the limit', () => {
    const added = add('ann', 'old question');
    expect(added.status === 'added' && added.watch.expiresAt).toEqual(days(30));
    expect(community.watches.due(days(29)).map((w) => w.question)).toEqual(['old question']);
    expect(community.watches.due(days(30))).toEqual([]);
    expect(community.watches.of('ann', days(31))).toEqual([]);
    for (let i = 1; i <= 10; i += 1) expect(add('ann', `new ${i}`, days(31)).status).toBe('added');
    // Watching it again after expiry starts a new watch.
    expect(community.watches.of('ann', days(31))).toHaveLength(10);
  });

  it('only one process claims a watch for posting; a failed post frees it, three failures end it', () => {
    const added = add('ann', 'q');
    if (added.status !== 'added') throw new Error('not added');
    const id = added.watch.id;
    expect(community.watches.claim(id, T0)).toBe(true);
    expect(community.watches.claim(id, T0)).toBe(false);
    expect(community.watches.due(T0)).toEqual([]);
    expect(community.watches.release(id)).toBe(true);
    expect(community.watches.claim(id, T0)).toBe(true);
    expect(community.watches.release(id)).toBe(true);
    community.watches.claim(id, T0);
    expect(community.watches.release(id)).toBe(false);
    expect(community.watches.of('ann', T0)).toEqual([]);
  });
});
