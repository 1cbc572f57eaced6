import { z } from 'zod';

/**
 * Bearer tokens of `axme serve --http` (docs/mcp.md, "Over HTTP, for a team"): each token has a
 * name (the actor its commits carry), a scope, and only its hash is kept.
 */

/** What a token may do: read tools only; every tool; every tool and whatever is admin's alone. */
export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
/** The response header in which `axme serve --http` names the calling token's scope (its name and value are never sent back): `axme doctor` reads it. */
export const TOKEN_SCOPE_HEADER = 'x-axme-token-scope';
export const TokenScopeSchema = z.enum(TOKEN_SCOPES).describe('read (read-only tools), write (every tool), admin (everything, including admin tools to come)');

/** A token as `axme token add` makes it: `axme_` and 32 random bytes in base64url (43 characters). */
export const AXME_TOKEN_RE = /^axme_[A-Za-z0-9_-]{43}$/;

/** A token's name: one word, so it can go into a commit trailer and a log line as it is. */
export const TOKEN_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const TokenName = z
  .string()
  .regex(TOKEN_NAME_RE, 'must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit')
  .describe("the token's name: who the commits made with it are from (a person, an agent, a machine)");

/** One token as stored: never the token itself. */
export const TokenRecordSchema = z.object({
  name: TokenName,
  scope: TokenScopeSchema,
  hash: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/)
    .describe('sha256 of the token, hex, prefixed "sha256:"'),
  created: z.string().describe('when the token was added (ISO 8601)'),
  lastUsed: z.string().nullable().describe('when a request last came with it (ISO 8601), null when never'),
});
export type TokenRecord = z.infer<typeof TokenRecordSchema>;

/** The tokens file (`<git common dir>/axme/tokens.json`, or `--tokens <file>`). */
export const TokenFileSchema = z.object({
  version: z.literal(1).describe('format version'),
  tokens: z.array(TokenRecordSchema).describe('the tokens, by name'),
});
export type TokenFile = z.infer<typeof TokenFileSchema>;

/** Whether a token of `scope` may do what `needs` asks. */
export function scopeAllows(scope: TokenScope, needs: TokenScope): boolean {
  return TOKEN_SCOPES.indexOf(scope) >= TOKEN_SCOPES.indexOf(needs);
}
