import { z } from 'zod';
import { MIN_PAGE_BUDGET } from '../model/page-budget.ts';

/** `at`: the knowledge as it was (every read that can look into the past takes it). */
export const atParam = z
  .string()
  .max(200)
  .optional()
  .describe('read the knowledge as it was: a commit, ~N (N commits back) or a date ("2026-01-31", "3 days ago")');

/** `page`: which page of a reply paged at a size budget. */
export const pageParam = z.number().int().min(1).optional().describe('page of the reply to return (replies are paged at a size budget; default 1)');

/** `budget`: characters per page (the CLI's --budget; the MCP tools page at the configured budget). */
export const budgetParam = z
  .number()
  .int()
  .min(MIN_PAGE_BUDGET)
  .optional()
  .describe(`characters per page, at least ${MIN_PAGE_BUDGET} (default: axme.yaml context.budget, else 12000)`);
