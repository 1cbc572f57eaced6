import { type AnyOperation, fieldsByFlag } from '../operations/operation.ts';

/** A flag in a message: `--kind`, not inside a longer word. */
const FLAG = /(?<![\w-])--([a-z][a-z0-9-]*)/g;

/**
 * A core message as the caller of `op`'s MCP tool reads it: a flag of the operation's CLI command
 * (`--kind`, `--anchor`, `--allow-secret`) becomes the tool's argument (`kind`, `anchors`,
 * `allow_secret: true`) when the tool takes that field. The core speaks the CLI's spelling; each
 * surface renders its own from the operation's definition. A flag inside a command the message
 * suggests for a shell (in backticks, or after `axme <command>` in the same clause) stays: it is
 * a command line for the user.
 */
export function toolWords(op: AnyOperation, taken: ReadonlySet<string>, message: string): string {
  const byFlag = fieldsByFlag(op);
  return message
    .split('`')
    .map((part, i) =>
      i % 2
        ? part
        : part.replace(FLAG, (flag: string, name: string, at: number) => {
            const field = byFlag.get(name);
            if (!field || !taken.has(field)) return flag;
            const clause =
              part
                .slice(0, at)
                .split(/[;:(]|\.\s/)
                .at(-1) ?? '';
            if (/\baxme [a-z]/.test(clause)) return flag;
            return field === 'allow_secret' ? '`allow_secret: true`' : `\`${field}\``;
          }),
    )
    .join('`');
}
