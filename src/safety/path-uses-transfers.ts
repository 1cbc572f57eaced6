import { posix } from 'node:path';
import { isSecretName } from '../model/sandbox.ts';
import type { Invocation } from './command.ts';
import { UNKNOWN } from './expand.ts';
import { spelledOut, TRANSFER_LONG_OPTIONS } from './long-options.ts';
import { type Access, backsUp, generic, globLanding, landing, namesFolder, options, type PathUse, use } from './path-access.ts';

/**
 * The copying, moving and linking programs' paths for path-uses.ts (cp, install, ln, mv, and
 * git mv through keptSecret): the destination written or the folder written into, the sources
 * read or moved away.
 */

/** The options of cp, install, ln and mv that take the next word: the target folder, a backup suffix, install's mode and owner. */
const TRANSFER_LONG = new Set(['--target-directory', '--suffix', '--mode', '--owner', '--group', '--strip-program', '--no-preserve']);

/**
 * cp, install, ln, mv: the destination written, or (`-t DIR`) the folder written into; the
 * sources read (cp, install, ln) or moved away (mv: read out and changed). A secret renamed or
 * linked beside itself under another secret name (`mv .env.local .env.local.bak`, `ln -s
 * .env.development .env.local`) is not read: mv only removes its old name, ln opens nothing.
 */
export function transfer(inv: Invocation): PathUse[] {
  const p = inv.program;
  const args = spelledOut(inv.args, TRANSFER_LONG_OPTIONS[p] ?? []);
  let into: PathUse | undefined;
  const operands = options(args, p === 'install' ? 'tSmog' : 'tS', TRANSFER_LONG, (name, w, value) => {
    if (name === '-t' || name === '--target-directory') into = use(w, value, 'into');
  });
  const uses = generic(inv, operands);
  // `install -d a b` makes every operand a folder
  if (p === 'install' && inv.args.some((w) => /^-[A-Za-z]*d/.test(w.value) || w.value === '--directory'))
    return uses.map((u): PathUse => ({ ...u, access: 'write' }));
  // `ln -s /etc/hosts` links ./hosts: the one operand is what the link names
  if (p === 'ln' && !into && uses.length === 1) {
    const source = uses[0]!;
    const here = use(source.word, `./${source.value.replace(/\/+$/, '').split('/').pop()}`, 'write');
    return [keptSecret(source.value, here) ? { ...source, access: 'none' } : source, here];
  }
  const dest = into ? undefined : uses.at(-1);
  const kept = dest !== undefined && uses.length === 2 && keptSecret(uses[0]!.value, dest);
  const source: Access = p === 'mv' ? (kept ? 'remove' : 'edit') : p === 'ln' && kept ? 'none' : 'read';
  const destAccess: Access = backsUp(args) ? 'edit' : 'write';
  const out = uses.map((u): PathUse => ({ ...u, access: u === dest ? destAccess : source }));
  // a folder for sure (`-t DIR`, `~/`, `.`, more than one source): each source lands in it under its own name
  const noTarget = args.some((w) => /^-[A-Za-z]*T/.test(w.value) || w.value === '--no-target-directory');
  const folder = into ?? (dest && !noTarget && (uses.length > 2 || namesFolder(dest.word)) ? dest : undefined);
  if (folder)
    for (const u of uses) {
      if (u === dest) continue;
      // `mv build/* ~/`: what the glob names lands there under names the glob's own stands for
      const at = u.word.glob ? globLanding(folder.value, u.value) : landing(folder.value, u.value);
      if (at !== null) out.push(use(folder.word, at, destAccess, u.word.glob ? { glob: true } : {}));
    }
  return into ? [...out, into] : out;
}

/** Whether what `from` names, moved or linked to `to`, stays beside it under a secret name: the same folder as written (no `..` in `to`), `to` a plain path named as a secret. */
export function keptSecret(from: string, to: PathUse): boolean {
  const name = to.value;
  // `x/..` is the folder above where x's link leads, which may be anywhere
  if (to.word.glob || name.includes(UNKNOWN) || name.endsWith('/') || /(^|\/)\.\.(\/|$)/.test(name) || !isSecretName(posix.basename(name))) return false;
  return posix.normalize(posix.dirname(from)) === posix.normalize(posix.dirname(name));
}
