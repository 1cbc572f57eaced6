/**
 * What `axme oracle scan` detects: plain, JSON-serialisable facts. Lists are sorted so that the
 * same working tree always gives the same facts (and the same page bytes).
 */

/** What a detector gets: the project's files (relative, `/`-separated, sorted) and a text reader. */
export interface ScanInput {
  files: readonly string[];
  /** text of a file, or null when it is missing, too large, binary or outside the tree */
  read: (path: string) => string | null;
  /** lookups over `files`, built once by `withIndex` (detectors build it themselves when absent) */
  index?: FileIndex;
}

/** Quick lookups over a file list, built once per list. */
export interface FileIndex {
  files: readonly string[];
  has(path: string): boolean;
  /** names of the files directly inside `dir` */
  children(dir: string): string[];
}

export type Ecosystem = 'node' | 'python' | 'go' | 'rust' | 'jvm' | 'dotnet';

/** A dependency that names a framework or test runner, with the version the manifest asks for. */
export interface Dep {
  name: string;
  version: string | null;
}

/** One project: an ecosystem's manifests in one folder. */
export interface ProjectFacts {
  /** folder relative to the top level; "." for the top level itself */
  dir: string;
  ecosystem: Ecosystem;
  /** the files this was read from (paths from the top level) */
  manifests: string[];
  name: string | null;
  languages: string[];
  /** package manager or build tool: npm, pnpm, poetry, uv, cargo, maven, gradle, dotnet, ... */
  tools: string[];
  /** runtime or language level: "node >=20", "python >=3.11", "go 1.22", "edition 2021", "net8.0" */
  runtime: string | null;
  frameworks: Dep[];
  testRunners: Dep[];
  /** other facts in a few words: "ESM", "workspace root", "Cargo.lock", ... */
  traits: string[];
}

export interface StackFacts {
  projects: ProjectFacts[];
}

export interface FolderCount {
  name: string;
  files: number;
}

export interface EntryPoint {
  path: string;
  /** why it counts: "package.json main", "cmd/*\/main.go", "src/main.rs", ... */
  kind: string;
}

export interface Workspace {
  /** the file that declares it */
  file: string;
  tool: string;
  /** member globs or paths as declared */
  members: string[];
}

export interface StructureFacts {
  /** files scanned (after the skipped folders) */
  totalFiles: number;
  topFolders: FolderCount[];
  topFiles: string[];
  entryPoints: EntryPoint[];
  testFolders: FolderCount[];
  /** test files next to the code: "*.test.*", "*_test.go", "test_*.py", ... by pattern */
  testFiles: FolderCount[];
  workspaces: Workspace[];
}

/** A configuration that says something about how the project is written or checked. */
export interface ToolConfig {
  tool: string;
  /** the file (or "file [section]") that configures it */
  file: string;
  /** a short detail: "strict: true", "extends @commitlint/config-conventional", hook names */
  detail: string | null;
}

export interface Workflow {
  /** GitHub Actions, GitLab CI, CircleCI, ... */
  system: string;
  file: string;
  /** the workflow's `name:` (GitHub Actions), else null */
  name: string | null;
}

export interface AgentExcerpt {
  file: string;
  /** the first characters of the file, the axme-managed block left out */
  excerpt: string;
  /** true when the file had more than the excerpt */
  truncated: boolean;
}

export interface PatternFacts {
  lintFormat: ToolConfig[];
  gitHooks: ToolConfig[];
  commitConventions: ToolConfig[];
  ci: Workflow[];
  agentInstructions: AgentExcerpt[];
}

export interface OracleFacts {
  stack: StackFacts;
  structure: StructureFacts;
  patterns: PatternFacts;
  /** what could not be read: broken manifests, a truncated file list */
  notes: string[];
}

/** Collects notes from detectors (deduplicated, sorted when read). */
export class Notes {
  private readonly set = new Set<string>();
  add(note: string): void {
    this.set.add(note);
  }
  list(): string[] {
    return [...this.set].sort();
  }
}
