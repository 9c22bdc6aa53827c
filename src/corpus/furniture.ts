/**
 * Page furniture: the parts of a scraped news page that are not reporting. They are kept out of the
 * index so that a photo caption or a link to another story is never quoted as an answer.
 */
export type FurnitureKind = 'caption' | 'related-links' | 'bullet-link' | 'teaser';

// "Migrants make their way towards the Channel Tunnel   Photo: EPA"
const CREDITED_CAPTION =
  /(?:^|\s)\(?(?:photo(?:graph)?|picture|image|pic|credit)s?\s*:\s*[^.!?:]{1,60}\)?$/iu;
// A heading that opens a list of links: "Read More:", "Related stories", "See also:".
const LINKS_HEADING =
  /^(?:read more|more on this(?: story)?|related(?: stories| articles| coverage| content| links)?|see also|most read|recommended|you may also like)\s*:?$/iu;
const BULLET = /^[•►▶▪●◦·]\s*\S/u;
const TEASER_BLOCK = /^(?:in pictures|in video|gallery|watch|video|pictures|e-?mail to a friend)\b/iu;
const ARROW_TEASER = /(?:»|Â»)\s*$/u;
/** A teaser glued to the end of a real paragraph after its last sentence. */
const TRAILING_TEASER =
  /(?<=[.!?"”’'])\s+(?:(?:in pictures|in video|gallery|pictures)\s*:[^.!?"”]*|(?:watch|see|read|listen to|look at)\b[^.!?"”]*(?:»|Â»)|e-?mail to a friend|REUTER)\s*$/iu;

const TERMINAL = /[.!?:;…]["”’')\]]*$/u;

/** Whether a block of text ends like a sentence (or introduces a quote with a colon). */
export function endsLikeSentence(text: string): boolean {
  return TERMINAL.test(text);
}

/**
 * An uncredited caption: one short line that does not end a sentence, between paragraphs that do.
 * ("Natacha Bouchart has criticised David Cameron's attitude to the crisis"). Headings and list items
 * share the shape; losing one of those from the index costs less than quoting a caption as fact.
 */
function looksLikeBareCaption(text: string): boolean {
  if (text.length >= 120 || endsLikeSentence(text)) return false;
  if (!/^\p{Lu}/u.test(text) || text === text.toUpperCase()) return false;
  return text.split(/\s+/).length >= 5;
}

/** Classifies each block of an article body: `null` for reporting, or the kind of furniture. */
export function classifyBlocks(blocks: readonly string[]): (FurnitureKind | null)[] {
  const kinds: (FurnitureKind | null)[] = [];
  let inLinkList = false;
  for (const [i, block] of blocks.entries()) {
    if (LINKS_HEADING.test(block)) {
      kinds.push('related-links');
      inLinkList = true;
      continue;
    }
    if (inLinkList && !endsLikeSentence(block) && block.length < 200) {
      kinds.push('related-links');
      continue;
    }
    inLinkList = false;
    if (CREDITED_CAPTION.test(block) && block.length < 300) kinds.push('caption');
    else if (BULLET.test(block) && !/[.!?]["”’']?$/u.test(block) && block.length < 200)
      kinds.push('bullet-link');
    else if ((TEASER_BLOCK.test(block) || ARROW_TEASER.test(block)) && block.length < 160)
      kinds.push('teaser');
    else if (i > 0 && i < blocks.length - 1 && looksLikeBareCaption(block)) kinds.push('caption');
    else kinds.push(null);
  }
  return kinds;
}

/** Removes a teaser glued to the end of a paragraph ("... very violent.” In pictures: Calais crisis"). */
export function stripTrailingTeaser(text: string): string {
  return text.replace(TRAILING_TEASER, '');
}
