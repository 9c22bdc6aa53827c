import { describe, expect, it } from 'vitest';
import { entitiesOf } from '../../src/text/entities.ts';

const kinds = (text: string) => entitiesOf(text).map((entity) => `${entity.kind}:${entity.text}`);

describe('entitiesOf: the facts a text states, by wink-nlp', () => {
  it('finds spans of months and vague durations, which have no day or year', () => {
    expect(kinds('More migrants died between June and July than in 2014.')).toContain(
      'duration:between June and July',
    );
    expect(kinds('The gang has been operating in the region for years.')).toContain('duration:years');
    expect(kinds('The feud went on for decades.')).toContain('duration:decades');
  });

  it('finds sums of money written with a sign or a word', () => {
    const found = kinds('He paid £7,000, or 7,000 pounds, and $4,700 to smugglers.');
    expect(found).toEqual(expect.arrayContaining(['money:£7,000', 'money:7,000 pounds', 'money:$4,700']));
  });

  it('finds percentages written "per cent" and "%"', () => {
    expect(kinds('Sales rose 5 per cent, or 5%.')).toEqual(['percent:5 per cent', 'percent:5%']);
  });

  it('finds names, not a capitalised word that only opens a sentence', () => {
    const found = kinds('Deaths rose. Sir Alex Ferguson said Arsene Wenger was "a disgrace".');
    expect(found).toEqual(expect.arrayContaining(['name:Sir Alex Ferguson', 'name:Arsene Wenger']));
    expect(found).not.toContain('name:Deaths');
  });

  it('gives offsets into the text it was given', () => {
    const text = '"It is a disgrace," she added.\nHe paid £7,000 in March.';
    for (const entity of entitiesOf(text)) expect(text.slice(entity.start, entity.end)).toBe(entity.text);
  });
});
