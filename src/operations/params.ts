import { z } from 'zod';

/** `at`: the knowledge as it was (every read that can look into the past takes it). */
export const atParam = z.string().max(200).optional().describe('read the knowledge as it was: a commit, ~N (N commits back) or a date ("2026-01-31", "3 days ago")');
