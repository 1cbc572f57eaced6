import type { GitBackend } from './backend.ts';

/**
 * The default backend of a long-lived process (the MCP server, in-process callers): each
 * operation goes where the benchmark measured it fastest (docs/benchmarks.md#side-by-side-benchcomparebenchts, its `backends` rows):
 * reads through the git CLI's one long-lived `cat-file --batch` (3-5× faster than
 * isomorphic-git's reads of loose and packed objects), writes in-process by looseObjectWriter
 * (no `git` process per object, and no isomorphic-git to load: about 3× faster per add). Both sit on the same object store, so
 * what one writes the other reads.
 */
export function hybridBackend(reader: GitBackend, writer: Pick<GitBackend, 'writeBlob' | 'writeBlobs' | 'writeTree' | 'writeCommit'>): GitBackend {
  return {
    name: 'hybrid',
    resolveRef: (ref) => reader.resolveRef(ref),
    readBlob: (oid) => reader.readBlob(oid),
    readTree: (oid) => reader.readTree(oid),
    readCommit: (oid) => reader.readCommit(oid),
    writeBlob: (data) => writer.writeBlob(data),
    writeBlobs: (datas) => writer.writeBlobs(datas),
    writeTree: (entries) => writer.writeTree(entries),
    writeCommit: (commit) => writer.writeCommit(commit),
    close: async () => {
      await reader.close();
    },
  };
}
