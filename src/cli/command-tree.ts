import { OPERATION_WORDS } from './command-index.ts';
import { TOP_LEVEL_HELP } from './group-help.ts';
import type { CliIO } from './io.ts';
import type { Command } from './operation-tree.ts';

/** Commands written by hand (they run no declared operation): their words, and how to load their module. */
export interface HandCommands {
  words: string[];
  /** those of its words that have subcommands (`token add`) */
  groups?: string[];
  load(io: CliIO): Promise<Command[]>;
}

/** The hand-written commands: set-up, servers, sync, the sandbox, tokens. */
export const HAND_COMMANDS: readonly HandCommands[] = [
  { words: ['init'], load: async (io) => [(await import('./commands/init.ts')).initCommand(io)] },
  { words: ['sync'], load: async (io) => [(await import('./commands/sync.ts')).syncCommand(io)] },
  { words: ['sandbox'], load: async (io) => [(await import('./commands/sandbox.ts')).sandboxCommand(io)] },
  { words: ['serve'], load: async (io) => [(await import('./commands/serve.ts')).serveCommand(io)] },
  { words: ['token'], groups: ['token'], load: async (io) => [(await import('./commands/token.ts')).tokenCommand(io)] },
  { words: ['doctor', 'git-hook', 'uninstall', 'hook'], load: async (io) => (await import('./commands/setup.ts')).setupCommands(io) },
  { words: ['ui'], load: async (io) => [(await import('./commands/ui.ts')).uiCommand(io)] },
];

/** Every top-level word: in the order of `TOP_LEVEL_HELP` (src/cli/group-help.ts), then any word it lacks. */
export function topLevelWords(): string[] {
  const all = [...HAND_COMMANDS.flatMap((h) => h.words), ...Object.keys(OPERATION_WORDS)];
  const order = Object.keys(TOP_LEVEL_HELP);
  return [...order.filter((w) => all.includes(w)), ...all.filter((w) => !order.includes(w))];
}

/**
 * The commands of the given top-level words, in that order: each word's operations (grouped by
 * src/cli/operation-tree.ts) or hand module loaded (a hand module once, with all its commands),
 * nothing else: what a command line does not run is not even imported.
 */
export async function commandsOf(io: CliIO, words: readonly string[]): Promise<Command[]> {
  const loaded = new Set<HandCommands>();
  const parts = words.map(async (word): Promise<Command[]> => {
    const hand = HAND_COMMANDS.find((h) => h.words.includes(word));
    if (!hand) {
      if (!OPERATION_WORDS[word]) return [];
      const [ops, { operationTree }] = await Promise.all([OPERATION_WORDS[word](), import('./operation-tree.ts')]);
      return [operationTree(io, word, ops)];
    }
    if (loaded.has(hand)) return [];
    loaded.add(hand);
    return hand.load(io);
  });
  return (await Promise.all(parts)).flat();
}
