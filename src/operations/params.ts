import { z } from 'zod';

/** `at`: the knowledge as it was (every read that can look into the past takes it). */
export const atParam = z
  .string()
  .max(200)
  .optional()
  .describe('read the knowledge as it was: a commit, ~N (N commits back) or a date ("2026-01-31", "3 days ago")');

/** `page`: which page of a reply paged at a size budget. */
export const pageParam = z.number().int().min(1).optional().describe('page of the reply to return (replies are paged at a size budget; default 1)');

/** `budget`: characters per page (the CLI's --budget; the MCP tools page at the configured budget). */
export const budgetParam = z.number().int().min(1).optional().describe('characters per page (default: axme.yaml context.budget, else 25000)');
