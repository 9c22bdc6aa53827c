/**
 * Okabe and Ito's colours (2008), chosen to stay apart under the common colour-vision deficiencies,
 * in the order stacked parts take them; their yellow is left out, too faint on the light background.
 * The rest ("other outlets") is grey, so that it never reads as one more outlet.
 */
export const SERIES_COLOURS = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00'] as const;
export const OTHER_COLOUR = '#8A8A85';

/**
 * A neutral light card: it shows the same in Discord's dark and light themes (a transparent picture
 * would put dark text on a dark theme), with near-black text well past WCAG AA contrast on it.
 */
export const BACKGROUND = '#F4F4F0';
export const INK = '#1C1C1C';
export const MUTED_INK = '#4A4A46';
export const GRID = '#D6D6D0';

/** The colour of the `index`th named series. */
export function seriesColour(index: number): string {
  return SERIES_COLOURS[index % SERIES_COLOURS.length]!;
}
