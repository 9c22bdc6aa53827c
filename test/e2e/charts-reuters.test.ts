// @module-tag shared-data (reads ../shared: skipped in a clone without it, run in CI)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadViolations } from '../../src/interactions/render/payload.ts';
import { inkShare } from '../support/png.ts';
import { sharedData } from '../support/shared-data.ts';
import { chatInput } from '../support/stand-in-discord/interactions.ts';
import { barsTotal, chartOf, listed } from './chart-replies.ts';
import { customIdsOf, type Harness, member, startHarness } from './harness.ts';

const REUTERS = sharedData('reuters');

describe('GIVEN the bot on the Reuters-21578 file (21,578 dated newswires, 1987)', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({ corpusPath: REUTERS, env: { RATE_LIMIT_QUESTIONS: '100' } });
  }, 240_000);

  afterAll(async () => {
    await harness?.stop();
  });

  for (const topic of ['cocoa prices', 'Brazil debt moratorium']) {
    it(`/timeline ${topic} attaches an 800x400 PNG whose bars add up to the articles listed`, async () => {
      const exchange = harness.discord.interact(chatInput('timeline', { topic }, member));
      const { data, files } = await exchange.final({ timeoutMs: 60_000 });
      expect(payloadViolations(data)).toEqual([]);
      const { png, alt, attachment } = await chartOf(exchange, files, data);
      expect([attachment.width, attachment.height, png.width, png.height]).toEqual([800, 400, 800, 400]);
      expect(inkShare(png)).toBeGreaterThan(0.05);
      const { dated, undated } = listed(data);
      expect(dated).toBeGreaterThan(10);
      expect(undated).toBe(0);
      expect(barsTotal(alt)).toBe(dated);
      expect(alt).toMatch(/First report \d+ \w+ 1987/);
      expect(customIdsOf(data)).toContain('timeline:page:1');
    }, 90_000);
  }
});
