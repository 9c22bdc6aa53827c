/**
 * Discord's documented limits on what a bot may send. A payload over any of them is rejected with a
 * 400, so the renderer cuts everything to fit and `payloadViolations` lets tests prove it did.
 */
export const Limits = {
  content: 2000,
  embeds: 10,
  embedTotal: 6000,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footerText: 2048,
  authorName: 256,
  actionRows: 5,
  buttonsPerRow: 5,
  customId: 100,
  buttonLabel: 80,
  /** Options of one string select menu. */
  selectOptions: 25,
  selectOptionLabel: 100,
  selectOptionValue: 100,
  selectPlaceholder: 150,
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
  /** Files one message may upload. */
  attachments: 10,
  /** Bytes one upload may be where the server has no boost: the smallest limit a bot meets. */
  attachmentBytes: 10 * 1024 * 1024,
  /** Characters of an attachment's description (alt text). */
  attachmentDescription: 1024,
} as const;
