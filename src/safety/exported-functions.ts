import type { SimpleCommand } from './shell.ts';

/**
 * bash functions handed to a child bash through its environment (docs/safety.md, "Shell commands
 * are parsed, not grepped"): a variable named `BASH_FUNC_NAME%%` (or `BASH_FUNC_NAME()`) whose
 * value is `() { body }` becomes the function NAME in every bash the command starts, run when
 * that bash calls NAME — a command of its own name (`ls`, `git`, `cd`) included: `env
 * 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls`, `export 'BASH_FUNC_x%%=() { … }'`. Each body is
 * read as the script it is, wherever it is set.
 */
const EXPORTED = /^BASH_FUNC_[^=]+?(?:%%|\(\))=\s*\(\)\s*\{([\s\S]*)\}\s*$/;

/** The bodies of the functions `cmd` exports through the environment, as scripts. */
export function exportedFunctionBodies(cmd: SimpleCommand): string[] {
  return cmd.words.flatMap((w) => {
    const m = EXPORTED.exec(w.value);
    return m ? [m[1]!] : [];
  });
}
