import { describe, expect, it } from 'vitest';
import {
  escapeText,
  hasLiveMention,
  neutraliseMentions,
  stripZeroWidth,
} from '../../../src/interactions/render/escape.ts';
import { finalizeChoices } from '../../../src/interactions/render/payload.ts';

describe('escapeText', () => {
  it('shows markdown literally by escaping it', () => {
    expect(escapeText('**bold** _it_ ~~s~~ `c` ||sp|| [l](u) a\\b')).toBe(
      '\\*\\*bold\\*\\* \\_it\\_ \\~\\~s\\~\\~ \\`c\\` \\|\\|sp\\|\\| \\[l\\](u) a\\\\b',
    );
  });

  it('escapes line-start syntax only at the start of a line', () => {
    expect(escapeText('# Head\n> quote\n-# small\n- item\n12. item\nmid-line # and > stay')).toBe(
      '\\# Head\n\\> quote\n\\-# small\n\\- item\n12\\. item\nmid-line # and > stay',
    );
  });

  it('splits every mention form with a zero-width space', () => {
    const out = escapeText('@everyone @here <@1234567> <@!1234567> <@&1234567> <#1234567> </ask:1234567>');
    expect(hasLiveMention(out)).toBe(false);
    expect(stripZeroWidth(out)).toBe(
      '@everyone @here <@1234567> <@!1234567> <@&1234567> <#1234567> </ask:1234567>',
    );
  });

  it('drops control and bidi-override characters that could hide or reorder text, keeping newlines and tabs', () => {
    expect(escapeText('a\u0000b\u202ec\td\ne')).toBe('abc\td\ne');
  });

  it('cannot be tricked into forming a mention by a removed character', () => {
    expect(hasLiveMention(escapeText('@\u0000everyone'))).toBe(false);
    expect(hasLiveMention(neutraliseMentions('<\u0007@&123>'))).toBe(false);
  });
});

describe('hasLiveMention', () => {
  it('recognises live mentions and ignores neutralised ones', () => {
    expect(hasLiveMention('hi @everyone')).toBe(true);
    expect(hasLiveMention('<@&99>')).toBe(true);
    expect(hasLiveMention('<@\u200b&99>')).toBe(false);
    expect(hasLiveMention('email me at a@example.com')).toBe(false);
  });
});

describe('finalizeChoices', () => {
  it('cleans autocomplete choice names like message bodies: no ESC, BEL or bidirectional override', () => {
    const [choice] = finalizeChoices([
      { name: 'Mayor \u001b]0;owned\u0007threatened \u202egnp.exe @everyone', value: 'mayor-threatened' },
    ]);
    expect(choice?.name).not.toMatch(/(?![\n\t])[\p{Cc}\u202a-\u202e\u2066-\u2069]/u);
    // The window-title escape goes whole, its text included: nothing of it is left to read.
    expect(choice?.name).toContain('Mayor threatened gnp.exe');
    expect(choice?.name).not.toContain('@everyone');
    expect(choice?.value).toBe('mayor-threatened');
  });
});
