/**
 * The fresh battery (fresh-battery.ts: dangerous commands in spellings the corpora do not hold,
 * everyday commands of a first day) through the engine: every row gets the verdict it says. An
 * `ask` row may be denied by a stricter rule; a `deny` row must be denied. Every failure listed.
 *
 * The context is corpus.test.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import { describe } from 'node:test';
import { testBattery } from './context.ts';
import { FRESH_DANGEROUS, FRESH_EVERYDAY } from './fresh-battery.ts';

describe('the fresh battery', () => testBattery([...FRESH_DANGEROUS, ...FRESH_EVERYDAY]));
