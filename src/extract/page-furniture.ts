import type { PageDocument } from './page-dom.ts';

/** Elements that are never reporting, wherever they are. */
const FURNITURE_TAGS = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'form',
  'button',
  'nav',
  'aside',
  'footer',
  'figcaption',
  'figure',
  'picture',
  'video',
  'audio',
  'svg',
  'dialog',
];

/** Elements that hold the story, or may: never dropped for their class or id. */
const CONTAINERS = ['html', 'body', 'main', 'article'];
const STORY = 'article, main, [itemprop="articleBody"]';

const FURNITURE_ROLES = [
  'navigation',
  'banner',
  'complementary',
  'contentinfo',
  'dialog',
  'alertdialog',
  'search',
];

/**
 * Words that, as a whole word of an element's class or id (`share-bar`, `related_stories`, `cookieBanner`
 * is not matched but `cookie-banner` is), mark page furniture. Whole words only, so `shared-story` or
 * `address` survive.
 */
const FURNITURE_WORDS = new Set([
  'ad',
  'ads',
  'advert',
  'adverts',
  'advertisement',
  'adslot',
  'sponsor',
  'sponsored',
  'promo',
  'promotion',
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'share',
  'sharing',
  'sharebar',
  'social',
  'related',
  'recommended',
  'recirculation',
  'outbrain',
  'taboola',
  'newsletter',
  'subscribe',
  'subscription',
  'paywall',
  'comments',
  'comment',
  'breadcrumb',
  'breadcrumbs',
  'caption',
  'credit',
  'byline',
  'tags',
  'toolbar',
  'popup',
  'modal',
  'banner',
  'masthead',
  'sidebar',
  'trending',
  'mostread',
]);

/**
 * Removes the page's furniture in place before Readability scores it: Readability drops much of it on
 * its own, but not reliably a cookie banner long enough to look like text, a "related stories" list
 * inside the article element, or a caption that reads like a sentence. The byline goes too: its text is
 * not reporting, and the author comes from the metadata.
 */
export function dropFurniture(document: PageDocument): number {
  let removed = 0;
  const doomed = new Set<{ remove(): void }>();
  for (const element of document.querySelectorAll(FURNITURE_TAGS.join(','))) doomed.add(element);
  for (const element of document.querySelectorAll('[role],[aria-hidden="true"],[hidden],[class],[id]')) {
    // A wrapper's class says little about the story inside it (`<main class="has-sidebar">`).
    if (CONTAINERS.includes(element.tagName.toLowerCase()) || element.querySelector(STORY) !== null) continue;
    const role = element.getAttribute('role');
    if (role !== null && FURNITURE_ROLES.includes(role)) doomed.add(element);
    else if (element.getAttribute('aria-hidden') === 'true' || element.hasAttribute('hidden'))
      doomed.add(element);
    else if (isFurnitureByName(`${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`))
      doomed.add(element);
  }
  for (const element of doomed) {
    element.remove();
    removed++;
  }
  return removed;
}

function isFurnitureByName(names: string): boolean {
  return names
    .toLowerCase()
    .split(/[\s_-]+/)
    .some((word) => FURNITURE_WORDS.has(word));
}
