// The retrieval benchmark's corpora by name, as `--corpora` takes them: defined once, in a module
// that imports nothing, so a usage error costs only Node's start.

/** The corpora's names, in the order the benchmark reports them. */
export const CORPUS_NAMES = ['records', 'unseen', 'heldout', 'fresh', 'notes', 'faq'] as const;
export type CorpusName = (typeof CORPUS_NAMES)[number];
