import { z } from 'zod';
import { toIsoDate } from './published-date.ts';

/** An article id: what citations are made of, so it must be short, stable and safe in a file name. */
export const ArticleId = z
  .string()
  .min(1, 'id is empty')
  .max(80, 'id is longer than 80 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'id may contain only letters, digits, ".", "_" and "-"');

const text = (max: number) =>
  z.string().trim().min(1, 'is empty').max(max, `is longer than ${max} characters`);

/**
 * Article metadata as authors write it. Only `title` is required: a citation without a known publisher,
 * date or link says so rather than guessing one.
 */
export const ArticleMetaSchema = z.strictObject({
  title: text(300),
  publisher: text(200).optional(),
  url: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(2000)
    .optional(),
  published: z
    .string()
    .transform((value, ctx) => {
      const iso = toIsoDate(value);
      if (iso === null) {
        ctx.addIssue({
          code: 'custom',
          message: /^\d{4}-\d{2}-\d{2}/.test(value)
            ? 'is not a real date'
            : 'must be a date such as 2015-08-01 (ISO 8601) or 26-FEB-1987 15:01:11.79',
        });
        return z.NEVER;
      }
      return iso;
    })
    .optional(),
  author: text(200).optional(),
  language: z
    .string()
    .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or fr-FR')
    .optional(),
});
