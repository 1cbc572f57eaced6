/** How a group of commands (`axme decision …`) presents itself: what the operations cannot say. */
export interface GroupHelp {
  /** its help line in `axme --help` */
  describe: string;
  /** its subcommands in the order the help lists them, an alias after its command: also the list a line without one is told */
  words: string[];
  /** what a line without a subcommand is told before that list (default: say what to do) */
  ask?: string;
}

/**
 * The one table of the top-level words: every word `axme --help` lists, in its order (the key
 * order). A group of operations (those under a first word, their `cli.command`) has its help line
 * and subcommand order here; a single command or a hand-written module is null, its help its own.
 * A new top-level word takes its place here; test/cli/command-tree.test.ts fails until it has one,
 * and checks every group's entry against its operations.
 */
export const TOP_LEVEL_HELP: Readonly<Record<string, GroupHelp | null>> = {
  init: null,
  log: null,
  history: null,
  fsck: null,
  decision: {
    describe: 'architectural decisions (D-NNN): add, list, show, amend, supersede, revoke',
    words: ['add', 'list', 'show', 'amend', 'supersede', 'revoke'],
  },
  memory: {
    describe: 'feedback and pattern memories: add, list, show, update, supersede, remove',
    words: ['add', 'list', 'show', 'update', 'supersede', 'remove'],
  },
  backlog: { describe: 'backlog items (B-NNN): add, list, show, update', words: ['add', 'list', 'show', 'update'] },
  question: {
    describe: 'open questions for the user (Q-NNN): ask, list, show, answer, status (applied, archived, open)',
    words: ['ask', 'list', 'show', 'answer', 'status'],
  },
  session: {
    describe: 'agent sessions: begin-close, finalize (one commit), list, show, recover (orphans)',
    words: ['begin-close', 'finalize', 'list', 'show', 'recover'],
  },
  sync: null,
  revert: null,
  diff: null,
  propose: null,
  check: null,
  verify: null,
  reconfirm: null,
  audit: {
    describe: 'audit a session transcript with a model: what the agent forgot to save (`audit <transcript>`), or the log of audits (`audit log`)',
    words: ['log'],
  },
  workspace: null,
  safety: { describe: 'safety rules enforced by the hooks: show, add, remove, set, reset', words: ['show', 'add', 'remove', 'set', 'reset'] },
  sandbox: null,
  serve: null,
  context: null,
  search: null,
  status: null,
  oracle: { describe: 'the oracle pages (stack, structure, patterns, glossary): show, scan', words: ['show', 'scan'] },
  token: null,
  doctor: null,
  'git-hook': null,
  uninstall: null,
  hook: null,
  import: {
    describe:
      "import knowledge from another tool: axme-code (an AXME Code .axme-code folder), adr (a folder of architecture decision records), auto-memory (Claude Code's auto memory notes); one commit each",
    words: ['axme-code', 'adr', 'auto-memory'],
    ask: 'say what to import from',
  },
  export: {
    describe: "write the knowledge into another tool: adr (the decisions as a MADR folder), auto-memory (Claude Code's auto memory, MEMORY.md)",
    words: ['adr', 'auto-memory'],
    ask: 'say what to export to',
  },
  'show-commit': null,
  blame: null,
  models: {
    describe:
      'the local model search ranks by meaning with: pull (download it once, checked), list or status (installed, in use, loads), eval (measure search on your own questions, with and without it)',
    words: ['pull', 'list', 'status', 'eval'],
  },
  ui: null,
};
