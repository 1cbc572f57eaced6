import { detectPatterns } from './detect-patterns.ts';
import { detectStack } from './detect-stack.ts';
import { detectStructure } from './detect-structure.ts';
import { Notes, type OracleFacts, type ScanInput } from './facts.ts';
import { withIndex } from './files.ts';

export interface ListingInfo {
  truncated: boolean;
  /** files that matched before the limit */
  matched: number;
}

/** Every fact of the scan, from a file list and a reader. Pure: the same input gives the same facts. */
export function detectOracleFacts(scan: ScanInput, listing: ListingInfo = { truncated: false, matched: scan.files.length }): OracleFacts {
  const input = withIndex(scan);
  const notes = new Notes();
  if (listing.truncated) {
    notes.add(
      `the file list stopped at ${input.files.length.toLocaleString('en-US')} of ${listing.matched.toLocaleString('en-US')} files: the facts come from the first ${input.files.length.toLocaleString('en-US')} by path`,
    );
  }
  const stack = detectStack(input, notes);
  const structure = detectStructure(input);
  const patterns = detectPatterns(input);
  return { stack, structure, patterns, notes: notes.list() };
}
