import type { Invocation } from '../command.ts';
import { type Hit, hasOption, hasShort, operands, values } from './args.ts';

/**
 * The system family's check on the toolchain managers a user installs into the home folder
 * (docs/safety.md): a command that removes the manager itself or every toolchain or package it
 * installed — `rustup self uninstall`, `pipx uninstall-all`, `asdf plugin remove nodejs` (every
 * version of it), `gem uninstall -aIx` (every gem), `nix-collect-garbage -d` (every earlier
 * generation to roll back to), and a removal handed the manager's own listing (`brew uninstall
 * $(brew list)`). What they remove
 * served every project of the user, not the task's, and takes hours to put back. Removing one named
 * package or version passes, and so does a named conda environment (`conda env remove -n dev`: everyday).
 */

/** One shape of a wipe: the leading operand words, and, where given, an option that must be there too. */
interface Wipe {
  words: readonly string[];
  /** a long option (or `-x` letter) that makes the verb a wipe (`nix-collect-garbage -d`) */
  option?: string;
  /** the wipe holds only when the verb names nothing after its words (`gem uninstall -a`: every gem) */
  bare?: boolean;
  what: string;
}

const ASDF: readonly Wipe[] = [
  { words: ['plugin', 'remove'], what: 'a tool and every version of it asdf installed' },
  { words: ['plugin-remove'], what: 'a tool and every version of it asdf installed' },
];

/** Each manager's wipes, by program. */
const WIPES: Readonly<Record<string, readonly Wipe[]>> = {
  rustup: [{ words: ['self', 'uninstall'], what: 'rustup and every Rust toolchain it installed' }],
  pipx: [{ words: ['uninstall-all'], what: 'every application pipx installed' }],
  asdf: ASDF,
  mise: [{ words: ['implode'], what: 'mise and every tool version it installed' }],
  rtx: [{ words: ['implode'], what: 'rtx and every tool version it installed' }],
  gem: [{ words: ['uninstall'], option: '-a', bare: true, what: 'every installed gem' }],
  'nix-collect-garbage': [
    { words: [], option: '--delete-old', what: "every earlier generation of the user's profiles, which a rollback needs" },
    { words: [], option: '-d', what: "every earlier generation of the user's profiles, which a rollback needs" },
  ],
};

/** Managers whose removing verb handed their own listing (`brew uninstall $(brew list)`) removes every package. */
const LISTINGS: Readonly<Record<string, { remove: readonly string[]; list: RegExp }>> = {
  brew: { remove: ['uninstall', 'remove', 'rm'], list: /^\$\(\s*brew\s+(?:list|ls|leaves)\b/ },
  port: { remove: ['uninstall'], list: /^\$\(\s*port\s+(?:-q\s+)?installed\b/ },
  gem: { remove: ['uninstall'], list: /^\$\(\s*gem\s+(?:list|query)\b/ },
  pipx: { remove: ['uninstall'], list: /^\$\(\s*pipx\s+list\b/ },
  cargo: { remove: ['uninstall'], list: /^\$\(\s*cargo\s+install\s+--list\b/ },
};

/** Whether the option of a wipe was given: a long option, or a short letter alone or in a cluster. */
function given(args: readonly string[], option: string): boolean {
  return option.startsWith('--') ? hasOption(args, option) : hasShort(args, option.slice(1)) || args.includes(option);
}

/** The hit of a toolchain manager's command that removes itself, all it installed, or a whole environment, or null. */
export function checkToolchains(inv: Invocation): Hit | null {
  const p = inv.program;
  const args = values(inv);
  const ops = operands(args);
  for (const w of Object.hasOwn(WIPES, p) ? WIPES[p]! : []) {
    if (!w.words.every((word, i) => ops[i] === word)) continue;
    if (w.option && !given(args, w.option)) continue;
    if (w.bare && ops.length > w.words.length) continue;
    return hit(`${[p, ...w.words].join(' ')}${w.option ? ` ${w.option}` : ''}`, w.what);
  }
  const listing = Object.hasOwn(LISTINGS, p) ? LISTINGS[p]! : null;
  if (listing && ops[0] !== undefined && listing.remove.includes(ops[0]) && inv.args.some((a) => listing.list.test(a.raw)))
    return hit(`${p} ${ops[0]} $(${p} list)`, `every package ${p} installed`);
  return null;
}

function hit(rule: string, what: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` removes ${what}: they serve every project of the user, not this task's, and nothing keeps them to put back`,
  };
}
