// What every RecordStore must do, whichever database keeps the records: run by
// store-contract.test.ts against SQLite (a real file) and PostgreSQL (a real server). A kind of record
// added to the interface gets its cases here, so both stores are held to the same behaviour.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { questionHash } from '../../src/community/community-store.ts';
import type { RecordStore } from '../../src/community/record-store.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-06-01T12:00:00Z');
const days = (n: number) => new Date(T0.getTime() + n * DAY);

/** A fresh, empty database; `second` opens another connection to the same one (another replica). */
export interface ContractDatabase {
  open(): Promise<RecordStore>;
  remove(): Promise<void>;
}

export function storeContract(name: string, fresh: () => Promise<ContractDatabase>): void {
  describe(`GIVEN the ${name} record store`, () => {
    let database: ContractDatabase;
    let store: RecordStore;
    const opened: RecordStore[] = [];
    const open = async () => {
      const next = await database.open();
      opened.push(next);
      return next;
    };
    beforeEach(async () => {
      database = await fresh();
      store = await open();
    });
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close();
      await database.remove();
    });

    const answer = (at: Date, question = 'who threatened the mayor?', guildId = 'g') =>
      store.records.recordAnswer({
        guildId,
        channelId: 'c',
        answeredAt: at,
        question,
        citations: ['teteghem#2', 'calais#7'],
        corpusVersion: 'v1',
      });

    it('a member has one vote per answer: a second press changes it, the same press changes nothing', async () => {
      const id = await answer(T0);
      const vote = (userId: string, helpful: boolean) =>
        store.records.vote({ answerId: id, userId, helpful, at: T0 });
      expect(await vote('ann', true)).toBe('recorded');
      expect(await store.records.tally(id)).toEqual({ helpful: 1, notHelpful: 0 });
      expect(await vote('ann', false)).toBe('changed');
      expect(await vote('ann', false)).toBe('unchanged');
      expect(await vote('bob', false)).toBe('recorded');
      expect(await store.records.tally(id)).toEqual({ helpful: 0, notHelpful: 2 });
      const [unhelpful] = await store.records.unhelpfulSince(days(-1), 10);
      expect(unhelpful?.notHelpful).toBe(2);
      expect(unhelpful?.helpful).toBe(0);
      expect(unhelpful?.answer).toMatchObject({
        id,
        question: 'who threatened the mayor?',
        citations: ['teteghem#2', 'calais#7'],
        guildId: 'g',
        channelId: 'c',
        messageId: null,
        corpusVersion: 'v1',
        answeredAt: T0,
      });
    });

    it('unhelpful answers come most not-helpful first, then fewest helpful', async () => {
      const [a, b, c] = [await answer(T0, 'a'), await answer(T0, 'b'), await answer(T0, 'c')];
      await store.records.vote({ answerId: a, userId: 'u1', helpful: false, at: T0 });
      await store.records.vote({ answerId: a, userId: 'u2', helpful: true, at: T0 });
      for (const user of ['u1', 'u2'])
        await store.records.vote({ answerId: b, userId: user, helpful: false, at: T0 });
      await store.records.vote({ answerId: c, userId: 'u1', helpful: true, at: T0 });
      const listed = await store.records.unhelpfulSince(days(-1), 10);
      expect(listed.map((entry) => [entry.answer.question, entry.notHelpful, entry.helpful])).toEqual([
        ['b', 2, 0],
        ['a', 1, 1],
      ]);
      expect(await store.records.unhelpfulSince(days(-1), 1)).toHaveLength(1);
    });

    it('a button press finds its answer by question hash and first citation, then by the message id it learnt', async () => {
      const id = await answer(T0);
      const lookup = {
        messageId: 'm1',
        questionHash: questionHash('Who threatened  the MAYOR?'),
        firstCitation: 'teteghem#2',
        channelId: 'c',
      };
      expect((await store.records.findAnswer(lookup))?.id).toBe(id);
      expect((await store.records.answer(id))?.messageId).toBe('m1');
      expect(
        (await store.records.findAnswer({ ...lookup, questionHash: 'other', firstCitation: 'x' }))?.id,
      ).toBe(id);
      expect(
        await store.records.findAnswer({ ...lookup, messageId: 'm2', firstCitation: 'nothing#1' }),
      ).toBeUndefined();
      // A direct message has no channel id: found by state all the same.
      const direct = await store.records.recordAnswer({
        guildId: null,
        channelId: null,
        answeredAt: T0,
        question: 'dm',
        citations: ['a#1'],
        corpusVersion: 'v1',
      });
      expect(
        (
          await store.records.findAnswer({
            messageId: 'm3',
            questionHash: questionHash('dm'),
            firstCitation: 'a#1',
            channelId: null,
          })
        )?.id,
      ).toBe(direct);
    });

    it('retention deletes answers (with their votes), questions without coverage, expired watches and old citations', async () => {
      const old = await answer(days(-91));
      await store.records.vote({ answerId: old, userId: 'ann', helpful: false, at: days(-91) });
      const recent = await answer(days(-89));
      await store.records.vote({ answerId: recent, userId: 'ann', helpful: true, at: days(-89) });
      for (const [question, at] of [
        ['old gap', days(-100)],
        ['new gap', days(-1)],
      ] as const)
        await store.records.recordUnanswered({
          guildId: 'g',
          channelId: 'c',
          question,
          askedAt: at,
          corpusVersion: 'v1',
        });
      await store.watches.add({
        userId: 'ann',
        guildId: 'g',
        channelId: 'c',
        question: 'expired',
        at: days(-31),
      });
      await store.watches.add({
        userId: 'ann',
        guildId: 'g',
        channelId: 'c',
        question: 'live',
        at: days(-29),
      });
      await store.citations.follow({
        interactionId: 'old',
        messageId: 'm-old',
        guildId: 'g',
        channelId: 'c',
        citedAt: days(-31),
        passages: [{ citation: 'a#1', articleId: 'a', paragraph: 1, text: 'Old.' }],
      });

      expect(await store.enforceRetention(T0)).toEqual({ answers: 1, unanswered: 1, watches: 1, cited: 1 });
      expect(await store.records.answer(old)).toBeUndefined();
      expect(await store.records.answer(recent)).toBeDefined();
      expect(await store.records.countsSince(days(-365))).toEqual({ answered: 1, unanswered: 1, votes: 1 });
      expect((await store.records.unansweredSince(days(-365))).map((q) => q.question)).toEqual(['new gap']);
      expect((await store.watches.of('ann', T0)).map((w) => w.question)).toEqual(['live']);
    });

    it('a guild sees only its own questions without coverage and unhelpful answers; the operator sees all', async () => {
      for (const [guildId, question] of [
        ['g', 'ours'],
        ['other', 'theirs'],
      ] as const) {
        await store.records.recordUnanswered({
          guildId,
          channelId: 'c',
          question,
          askedAt: T0,
          corpusVersion: 'v1',
        });
        const id = await answer(T0, question, guildId);
        await store.records.vote({ answerId: id, userId: 'ann', helpful: false, at: T0 });
      }
      expect((await store.records.unansweredSince(days(-1), 'g')).map((q) => q.question)).toEqual(['ours']);
      expect((await store.records.unansweredSince(days(-1))).map((q) => q.question)).toEqual([
        'ours',
        'theirs',
      ]);
      expect(
        (await store.records.unhelpfulSince(days(-1), 10, 'other')).map((u) => u.answer.question),
      ).toEqual(['theirs']);
      expect(await store.records.unhelpfulSince(days(-1), 10)).toHaveLength(2);
    });

    it('counts for /about cover only the period asked for; a question stored without text is counted, never shown', async () => {
      await answer(days(-8));
      const id = await answer(days(-1));
      await store.records.vote({ answerId: id, userId: 'ann', helpful: true, at: days(-1) });
      await store.records.recordUnanswered({
        guildId: 'g',
        channelId: 'c',
        question: null,
        askedAt: days(-2),
        corpusVersion: 'v1',
      });
      expect(await store.records.countsSince(days(-7))).toEqual({ answered: 1, unanswered: 1, votes: 1 });
      expect(await store.records.unansweredSince(days(-7))).toEqual([]);
    });

    const add = (userId: string, question: string, at = T0, on = store) =>
      on.watches.add({ userId, guildId: 'g', channelId: 'c', question, at });

    it('a member holds at most 10 watches; the same question twice is one; another member is not limited by them', async () => {
      for (let i = 1; i <= 10; i += 1) expect((await add('ann', `question ${i}`)).status).toBe('added');
      expect(await add('ann', 'question 11')).toEqual({ status: 'limit-reached', limit: 10 });
      expect((await add('ann', 'question 3')).status).toBe('already-watching');
      expect((await add('bob', 'question 1')).status).toBe('added');
      const [first] = await store.watches.of('ann', T0);
      expect(first?.question).toBe('question 1');
      expect(first && (await store.watches.cancel(first.id, 'bob'))).toBe(false);
      expect(first && (await store.watches.cancel(first.id, 'ann'))).toBe(true);
      expect((await add('ann', 'question 11')).status).toBe('added');
    });

    it('two replicas adding a member’s watches at once never let them hold more than the limit', async () => {
      const other = await open();
      const results = await Promise.all(
        Array.from({ length: 16 }, (_, i) => add('ann', `q${i}`, T0, i % 2 === 0 ? store : other)),
      );
      expect(results.filter((result) => result.status === 'added')).toHaveLength(10);
      expect(await store.watches.of('ann', T0)).toHaveLength(10);
    });

    it('a watch expires after 30 days: no longer listed, checked or counted against the limit', async () => {
      const added = await add('ann', 'old question');
      expect(added.status === 'added' && added.watch.expiresAt).toEqual(days(30));
      expect((await store.watches.due(days(29))).map((w) => w.question)).toEqual(['old question']);
      expect(await store.watches.due(days(30))).toEqual([]);
      expect(await store.watches.of('ann', days(31))).toEqual([]);
      for (let i = 1; i <= 10; i += 1) expect((await add('ann', `new ${i}`, days(31))).status).toBe('added');
      expect(await store.watches.of('ann', days(31))).toHaveLength(10);
    });

    it('of two replicas claiming a watch at once exactly one wins; a failed post frees it, three failures end it', async () => {
      const added = await add('ann', 'q');
      if (added.status !== 'added') throw new Error('not added');
      const id = added.watch.id;
      const other = await open();
      const claims = await Promise.all([store.watches.claim(id, T0), other.watches.claim(id, T0)]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.watches.due(T0)).toEqual([]);
      // A claim left by a process that died is free again after ten minutes.
      expect((await store.watches.due(new Date(T0.getTime() + 11 * 60_000))).map((w) => w.id)).toEqual([id]);
      expect(await store.watches.release(id)).toBe(true);
      expect(await store.watches.claim(id, T0)).toBe(true);
      expect(await store.watches.release(id)).toBe(true);
      await store.watches.claim(id, T0);
      expect(await store.watches.release(id)).toBe(false);
      expect(await store.watches.of('ann', T0)).toEqual([]);
      const done = await add('bob', 'posted');
      if (done.status !== 'added') throw new Error('not added');
      await store.watches.finish(done.watch.id);
      expect(await store.watches.of('bob', T0)).toEqual([]);
    });

    const cite = (interactionId: string, citedAt: Date, citations: string[], messageId?: string) =>
      store.citations.follow({
        interactionId,
        ...(messageId ? { messageId } : {}),
        guildId: 'g',
        channelId: 'c',
        citedAt,
        passages: citations.map((citation) => ({
          citation,
          articleId: citation.split('#')[0] ?? '',
          paragraph: Number(citation.split('#')[1]),
          text: `Words of ${citation}.`,
        })),
      });

    it('citations are followed once their message is known, each message’s citation once, first cited first', async () => {
      await cite('i1', T0, ['a#1', 'b#2']);
      expect(await store.citations.awaitsMessage('i1')).toBe(true);
      expect(await store.citations.due(days(-1))).toEqual([]);
      expect(await store.citations.attachMessage('i1', 'm1')).toBe(2);
      expect(await store.citations.awaitsMessage('i1')).toBe(false);
      expect(await store.citations.isFollowed('m1')).toBe(true);
      expect(await store.citations.isFollowed('m2')).toBe(false);
      // The answer's next page cites a#1 again, on the same message, later.
      await cite('i2', days(1), ['a#1', 'c#3'], 'm1');
      await cite('w1', days(2), ['d#4'], 'm9');
      const due = await store.citations.due(days(-1));
      expect(due.map((row) => [row.messageId, row.citation, row.citedAt])).toEqual([
        ['m1', 'a#1', T0],
        ['m1', 'b#2', T0],
        ['m1', 'c#3', days(1)],
        ['m9', 'd#4', days(2)],
      ]);
      expect(due[0]).toEqual({
        messageId: 'm1',
        guildId: 'g',
        channelId: 'c',
        citedAt: T0,
        citation: 'a#1',
        articleId: 'a',
        paragraph: 1,
        text: 'Words of a#1.',
      });
      expect((await store.citations.due(days(1))).map((row) => row.citation)).toEqual(['a#1', 'c#3', 'd#4']);
    });

    it('of two replicas claiming a correction at once each citation goes to one; failures free it twice, then keep it', async () => {
      await cite('i1', T0, ['a#1', 'b#2'], 'm1');
      const other = await open();
      const [mine, theirs] = await Promise.all([
        store.citations.claim('m1', ['a#1', 'b#2'], T0),
        other.citations.claim('m1', ['a#1', 'b#2'], T0),
      ]);
      expect([...mine, ...theirs].sort()).toEqual(['a#1', 'b#2']);
      expect(await store.citations.due(days(-1))).toEqual([]);
      expect(await store.citations.release('m1', ['a#1'])).toBe(true);
      expect((await store.citations.due(days(-1))).map((row) => row.citation)).toEqual(['a#1']);
      expect(await store.citations.claim('m1', ['a#1'], T0)).toEqual(['a#1']);
      expect(await store.citations.release('m1', ['a#1'])).toBe(true);
      expect(await store.citations.claim('m1', ['a#1'], T0)).toEqual(['a#1']);
      expect(await store.citations.release('m1', ['a#1'])).toBe(false);
      expect(await store.citations.due(days(-1))).toEqual([]);
    });

    it('a record written through one connection is read through another', async () => {
      const other = await open();
      const id = await answer(T0);
      expect((await other.records.answer(id))?.question).toBe('who threatened the mayor?');
      expect(await other.records.vote({ answerId: id, userId: 'ann', helpful: true, at: T0 })).toBe(
        'recorded',
      );
      expect(await store.records.tally(id)).toEqual({ helpful: 1, notHelpful: 0 });
    });

    const here = { guildId: 'g', channelId: 'c' };

    it('a channel nothing was set for has the defaults; a change sets what it names and keeps the rest', async () => {
      expect(await store.settings.of(here)).toEqual({ threadMode: false, visibility: 'public', outlets: [] });
      expect(await store.settings.change(here, { threadMode: true }, T0)).toEqual({
        threadMode: true,
        visibility: 'public',
        outlets: [],
      });
      await store.settings.change(here, { outlets: ['Harbour Gazette', 'harbour gazette', 'The Wire'] }, T0);
      expect(await store.settings.change(here, { visibility: 'private' }, days(1))).toEqual({
        threadMode: true,
        visibility: 'private',
        outlets: ['Harbour Gazette', 'The Wire'],
      });
      // Another channel, or the same channel id in another guild, is untouched.
      expect(await store.settings.of({ guildId: 'g', channelId: 'other' })).toEqual({
        threadMode: false,
        visibility: 'public',
        outlets: [],
      });
      expect((await store.settings.of({ guildId: 'other', channelId: 'c' })).threadMode).toBe(false);
      await store.settings.change(here, { outlets: [], threadMode: false }, days(2));
      expect(await store.settings.of(here)).toEqual({
        threadMode: false,
        visibility: 'private',
        outlets: [],
      });
      expect(await store.settings.reset(here)).toBe(true);
      expect(await store.settings.reset(here)).toBe(false);
      expect(await store.settings.of(here)).toEqual({ threadMode: false, visibility: 'public', outlets: [] });
    });

    it('a guild is answered everywhere until channels are listed, then only in those', async () => {
      expect(await store.settings.answerChannels('g')).toEqual([]);
      expect(await store.settings.addAnswerChannel({ guildId: 'g', channelId: 'news' }, T0)).toBe(true);
      expect(await store.settings.addAnswerChannel({ guildId: 'g', channelId: 'ask' }, days(1))).toBe(true);
      expect(await store.settings.addAnswerChannel({ guildId: 'g', channelId: 'news' }, days(2))).toBe(false);
      expect(await store.settings.addAnswerChannel({ guildId: 'other', channelId: 'x' }, T0)).toBe(true);
      expect(await store.settings.answerChannels('g')).toEqual(['news', 'ask']);
      expect(await store.settings.removeAnswerChannel({ guildId: 'g', channelId: 'news' })).toBe(true);
      expect(await store.settings.removeAnswerChannel({ guildId: 'g', channelId: 'news' })).toBe(false);
      expect(await store.settings.answerChannels('g')).toEqual(['ask']);
      expect(await store.settings.answerEverywhere('g')).toBe(1);
      expect(await store.settings.answerChannels('g')).toEqual([]);
      expect(await store.settings.answerChannels('other')).toEqual(['x']);
    });

    it('two replicas changing different settings of a channel at once keep both; retention keeps settings', async () => {
      const other = await open();
      await Promise.all([
        store.settings.change(here, { threadMode: true }, T0),
        other.settings.change(here, { outlets: ['The Wire'] }, T0),
        other.settings.addAnswerChannel(here, T0),
      ]);
      expect(await store.settings.of(here)).toEqual({
        threadMode: true,
        visibility: 'public',
        outlets: ['The Wire'],
      });
      await store.enforceRetention(days(400));
      expect((await other.settings.of(here)).outlets).toEqual(['The Wire']);
      expect(await other.settings.answerChannels('g')).toEqual(['c']);
    });

    const newDigest = (guildId = 'g', createdAt = T0) => ({
      guildId,
      channelId: 'c',
      every: 'day' as const,
      weekday: 1,
      atMinutes: 18 * 60,
      timeZone: 'Europe/Paris',
      topic: 'dock strike',
      outlets: ['The Wire'],
      createdBy: 'mod',
      createdAt,
    });

    it('digests are kept per guild, at most 10, until removed; retention keeps them and the arrivals', async () => {
      const added = await store.digests.add(newDigest());
      if (added.status !== 'added') throw new Error('not added');
      expect(added.digest).toEqual({ ...newDigest(), id: added.digest.id, lastPeriod: null });
      for (let i = 1; i < 10; i++) await store.digests.add(newDigest());
      expect(await store.digests.add(newDigest())).toEqual({ status: 'limit-reached', limit: 10 });
      expect((await store.digests.add(newDigest('other'))).status).toBe('added');
      expect(await store.digests.of('g')).toHaveLength(10);
      expect(await store.digests.all()).toHaveLength(11);
      expect(await store.digests.remove('other', added.digest.id)).toBe(false);
      expect(await store.digests.remove('g', added.digest.id)).toBe(true);
      expect(await store.digests.get(added.digest.id)).toBeUndefined();
      expect(await store.digests.recordArrivals(['a', 'b'], T0)).toBe(2);
      await store.enforceRetention(days(4000));
      expect(await store.digests.of('g')).toHaveLength(9);
      expect(await store.digests.arrivedBetween(T0.getTime() - 1, T0.getTime())).toEqual(['a', 'b']);
    });

    it('an article arrives once: recorded again later (a restart, another replica), it keeps its first arrival', async () => {
      expect(await store.digests.recordArrivals(['a', 'b'], T0)).toBe(2);
      const other = await open();
      expect(await other.digests.recordArrivals(['b', 'c'], days(1))).toBe(1);
      expect(await store.digests.arrivedBetween(T0.getTime(), days(1).getTime())).toEqual(['c']);
      expect(await store.digests.arrivedBetween(0, days(2).getTime())).toEqual(['a', 'b', 'c']);
      expect(await store.digests.recordArrivals([], T0)).toBe(0);
    });

    it('of two replicas claiming a digest’s period at once exactly one wins; a failed post gives it back twice, then skips it', async () => {
      const added = await store.digests.add(newDigest());
      if (added.status !== 'added') throw new Error('not added');
      const id = added.digest.id;
      const other = await open();
      const period = days(1).getTime();
      const claims = await Promise.all([
        store.digests.claim(id, null, period),
        other.digests.claim(id, null, period),
        other.digests.claim(id, null, period),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect((await other.digests.get(id))?.lastPeriod).toBe(period);
      // Read before the claim, or a period not after the last: refused.
      expect(await store.digests.claim(id, null, days(2).getTime())).toBe(false);
      expect(await store.digests.claim(id, period, period)).toBe(false);
      expect(await store.digests.release(id, null, period)).toBe(true);
      expect((await store.digests.get(id))?.lastPeriod).toBeNull();
      expect(await store.digests.claim(id, null, period)).toBe(true);
      expect(await store.digests.release(id, null, period)).toBe(true);
      expect(await store.digests.claim(id, null, period)).toBe(true);
      expect(await store.digests.release(id, null, period)).toBe(false);
      expect((await store.digests.get(id))?.lastPeriod).toBe(period);
      // The count starts afresh: the next period gets its own three tries.
      const next = days(2).getTime();
      expect(await store.digests.claim(id, period, next)).toBe(true);
      expect(await store.digests.release(id, period, next)).toBe(true);
      expect(await store.digests.claim(id, period, next)).toBe(true);
      await store.digests.sent(id);
      expect((await store.digests.get(id))?.lastPeriod).toBe(next);
    });
  });
}
