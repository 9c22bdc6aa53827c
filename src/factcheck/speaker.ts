/**
 * Who a paragraph says is speaking: the name beside a verb of saying ("Franck Dhersin told the BBC",
 * "said Natacha Bouchart", "according to the mayor, Franck Dhersin"). Only names the paragraph itself
 * gives; a pronoun ("he said") names nobody, and nothing is guessed from other paragraphs.
 */

const SAYING =
  'said|says|say|told|tells|added|adds|stated|states|explained|warned|warns|insisted|insists|claimed|claims|declared|wrote|writes|tweeted|argued|argues|announced|admitted|noted|asked|asks|replied|continued|urged|urges|vowed|threatened|threatens|confirmed|denied|acknowledged|according to';
// A name: capitalised words, possibly with particles and initials ("Jean-Marc de la Tour", "Barack H. Obama").
// Not after "of", "in"...: "the mayor of Calais, said" names a place, not a speaker.
const NAME =
  "(?<!\\b(?:of|in|at|from|for|to|by|with)\\s)\\p{Lu}[\\p{L}'’.-]*(?:\\s+(?:(?:de|du|la|le|van|von|der|da|di|al|bin|el)\\s+)*\\p{Lu}[\\p{L}'’.-]*)*";
/** Attributions, most direct first: a paragraph that has one of the first kind is read by it. */
const PATTERNS = [
  // Franck Dhersin told / Franck Dhersin, told / Bouchart has said
  new RegExp(`(${NAME}),?\\s+(?:has\\s+|had\\s+|also\\s+)?(?:${SAYING})\\b`, 'gu'),
  // said Natacha Bouchart / according to Franck Dhersin / said the mayor, Franck Dhersin
  new RegExp(`\\b(?:${SAYING})\\s+(?:the\\s+[\\p{Ll}\\s-]{1,60},\\s+)?(${NAME})`, 'gu'),
  // Franck Dhersin, the mayor of Teteghem, said
  new RegExp(`(${NAME}),[^,.;“”"]{1,80},\\s+(?:has\\s+|had\\s+|also\\s+)?(?:${SAYING})\\b`, 'gu'),
];
/** Capitalised words that start a clause but name no one. */
const NOT_NAMES = new Set(
  'The A An He She It They We I You This That These Those His Her Their Its Our But And Yet In On At As When While After Before Police Officials Reports Sources Authorities There'.split(
    ' ',
  ),
);

/**
 * The speaker the paragraph names, preferring the attribution nearest `near` (the offset of the quoted
 * words), or `null` when it names none.
 */
export function speakerOf(paragraph: string, near = 0): string | null {
  for (const pattern of PATTERNS) {
    let best: { name: string; distance: number } | null = null;
    for (const match of paragraph.matchAll(pattern)) {
      const name = cleanName(match[1] ?? '');
      if (name === null) continue;
      const distance = Math.abs(match.index - near);
      if (best === null || distance < best.distance) best = { name, distance };
    }
    if (best) return best.name;
  }
  return null;
}

function cleanName(raw: string): string | null {
  const words = raw.trim().replace(/[.,]$/, '').split(/\s+/);
  while (words.length > 0 && NOT_NAMES.has(words[0]!)) words.shift();
  const name = words.join(' ');
  if (name === '' || NOT_NAMES.has(name)) return null;
  return name;
}
