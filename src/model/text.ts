import { z } from 'zod';
import { trimBlankLines } from './frontmatter.ts';
import { cleanLine } from './invisible.ts';
import { formatSize, LIMITS } from './limits.ts';
import { hiddenTextProblem, textProblem } from './text-problem.ts';

export { hiddenTextProblem, textProblem } from './text-problem.ts';

function sizeMessage(what: string, value: string, max: number): string {
  const bytes = Buffer.byteLength(value);
  return `is ${formatSize(bytes)}, over the ${formatSize(max)} limit for ${what}; keep knowledge short and reference large material by its path in the repository`;
}

/** Multi-line text field, at most LIMITS.text characters, no binary data. */
export function longText(description: string) {
  return (
    z
      .string()
      .superRefine((v, ctx) => {
        if (v.length > LIMITS.text) ctx.addIssue({ code: 'custom', message: sizeMessage('one field', v, LIMITS.text) });
        else {
          const p = textProblem(v) ?? hiddenTextProblem(v);
          if (p) ctx.addIssue({ code: 'custom', message: p });
        }
      })
      // what the file keeps: no blank lines around, no trailing whitespace, indentation intact
      .transform((v) => trimBlankLines(v.replace(/\r\n?/g, '\n')))
      .describe(description)
  );
}

/**
 * One-line title: NFC, invisible characters removed (`cleanLine`: zero-width spaces and joiners,
 * BOM, soft hyphens, direction marks, ...), whitespace collapsed, 1..LIMITS.title characters.
 * Bidirectional overrides and isolates are refused, not removed (`textProblem`).
 */
export function titleText(description: string) {
  return z
    .string()
    .superRefine((v, ctx) => {
      if (v.length > LIMITS.text) {
        ctx.addIssue({
          code: 'custom',
          message: `is ${formatSize(Buffer.byteLength(v))}, over the limit for a title: one line of at most ${LIMITS.title} characters`,
        });
        return;
      }
      const p = textProblem(v);
      if (p) ctx.addIssue({ code: 'custom', message: p });
    })
    .transform((v) => cleanLine(v).replace(/\s+/g, ' ').trim())
    .pipe(
      z
        .string()
        .min(1, 'must not be empty')
        .max(LIMITS.title, `must be at most ${LIMITS.title} characters; put detail in the body`)
        .refine((v) => v === '' || /[\p{L}\p{N}\p{P}\p{S}]/u.test(v), 'must contain a visible character'),
    )
    .describe(description);
}

/** A short list entry (tag, keyword, scope name, anchor path): one line, cleaned like a title (`cleanLine`). */
export const listEntry = z
  .string()
  .transform((v) => cleanLine(v).trim())
  .pipe(
    z
      .string()
      .min(1, 'entries must not be empty')
      .max(LIMITS.listItem, `entries must be at most ${LIMITS.listItem} characters`)
      .refine((v) => textProblem(v) === null && !/[\r\n]/.test(v), 'entries must be one line of text'),
  );

/**
 * A list of short strings. Accepts an array, a comma-separated string (AXME writes
 * `keywords: a, b`) or both (`--tags a --tags b,c`); duplicates are dropped, order kept.
 */
export function stringList(description: string) {
  return z
    .union([z.array(z.string()), z.string()])
    .transform((v) => [
      ...new Set(
        (typeof v === 'string' ? [v] : v)
          .flatMap((s) => s.split(','))
          .map((s) => cleanLine(s).trim())
          .filter((s) => s !== ''),
      ),
    ])
    .pipe(z.array(listEntry).max(LIMITS.listItems, `at most ${LIMITS.listItems} entries`))
    .describe(description);
}
