import type { Invocation } from './command.ts';
import type { Finding } from './git-rules.ts';
import { type PathRuleContext, pathFinding, SECRET_PATHS, secretNameFinding } from './path-rules.ts';
import { resolvePath } from './paths.ts';
import { UNKNOWN } from './shell.ts';
import type { Word } from './syntax.ts';

/**
 * A secret opened to other users (docs/safety.md, "Credentials and paths spelled another way"):
 * a mode or access list that lets the group, others or a named user read or write a file the
 * secret rules keep (`chmod 644 ~/.ssh/id_ed25519`, `chmod go+r ~/.aws/credentials`, `chmod a+r
 * .env`, `setfacl -m o::r ~/.ssh/id_rsa`), or, given to a whole folder (`-R`, a default entry
 * `-d`), the home folder or a folder of secrets (`chmod -R 0755 ~/.gnupg`, `setfacl -R -m
 * u:nobody:rwx ~`): every account on the machine, and every service running as one, reads the
 * key. What tightens passes (`chmod 600 ~/.ssh/id_ed25519`, `chmod go-rwx`, `setfacl -x`,
 * `getfacl`), as does opening a public key (`chmod 644 ~/.ssh/id_ed25519.pub`), any other file, and
 * a folder's own mode alone (`chmod 755 ~/.gnupg`: the keys in it keep theirs).
 */

/** A chmod mode that lets group or others read or write (`644`, `go+r`, `a+rw`, `o=r`, `+r`: the umask rarely keeps others' r). */
export function modeOpens(mode: string): boolean {
  if (mode.includes(UNKNOWN)) return false;
  if (/^[0-7]{1,4}$/.test(mode)) return (Number.parseInt(mode, 8) & 0o066) !== 0;
  return mode.split(',').some((clause) => {
    const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
    return m !== null && m[2] !== '-' && (m[1] === '' || /[goa]/.test(m[1]!)) && /[rw]/.test(m[3]!);
  });
}

/** A setfacl entry that gives a named user, a group, the mask or others read or write (`u:nobody:rwx`, `o::r`, `d:other::rw`). */
function entryOpens(entry: string): boolean {
  const parts = entry.replace(/^d(?:efault)?:/, '').split(':');
  const [tag, qualifier, perms = ''] = parts.length === 2 ? [parts[0]!, '', parts[1]!] : parts;
  if (!/[rw]|^[0-7]*[2-7]/.test(perms)) return false;
  if (/^(?:o|other|g|group|m|mask)$/.test(tag!)) return true;
  return /^(?:u|user)$/.test(tag!) && qualifier !== '';
}

/** What `inv` opens and to which paths: chmod's mode and its operands, setfacl's modified entries and its files; null for another program or a tightening. */
function opening(inv: Invocation): { paths: Word[]; whole: boolean } | null {
  const words = inv.args;
  if (inv.program === 'chmod') {
    const operands = words.filter((w) => !/^-[Rcfv]+$|^--(?:recursive|changes|silent|quiet|verbose)?$/.test(w.value));
    const [mode, ...paths] = operands;
    if (!mode || !modeOpens(mode.value)) return null;
    return { paths, whole: words.some((w) => /^-[a-zA-Z]*R/.test(w.value) || w.value === '--recursive') };
  }
  if (inv.program === 'setfacl') {
    let opens = false;
    let whole = false;
    const paths: Word[] = [];
    for (let i = 0; i < words.length; i++) {
      const v = words[i]!.value;
      if (v === '-m' || v === '--modify' || v === '-M' || v === '--modify-file') {
        const entries = words[++i]?.value ?? '';
        if (v === '-m' || v === '--modify') opens ||= entries.split(',').some(entryOpens);
        whole ||= entries.split(',').some((e) => /^d(?:efault)?:/.test(e));
      } else if (v.startsWith('--modify=')) opens ||= v.slice(9).split(',').some(entryOpens);
      else if (v === '-x' || v === '--remove' || v === '-X') i++;
      else if (/^-[a-zA-Z]+$/.test(v)) {
        if (v.includes('R')) whole = true;
        if (v.includes('d')) whole = true;
        if (v.endsWith('m')) opens ||= (words[++i]?.value ?? '').split(',').some(entryOpens);
      } else paths.push(words[i]!);
    }
    return opens ? { paths, whole } : null;
  }
  return null;
}

/** The finding on a secret (or, opened whole, the home folder or a folder of secrets) opened to other users (module comment), or null. */
export function checkOpenedSecret(inv: Invocation, ctx: Omit<PathRuleContext, 'cwd'> & { cwd: string | null }): Finding | null {
  const opened = opening(inv);
  if (!opened) return null;
  for (const w of opened.paths) {
    if (w.value.startsWith(UNKNOWN) || (ctx.cwd === null && !w.value.startsWith('/'))) continue;
    const abs = resolvePath(w.value, { cwd: ctx.cwd ?? '/', home: ctx.home });
    const glob = w.glob || abs.includes(UNKNOWN);
    const pctx = { ...ctx, cwd: ctx.cwd ?? '/' };
    // the file itself a secret (by its path or its name), or, opened whole, a folder that holds one (the home, `~/.gnupg`);
    // a folder's own mode alone (`chmod 755 ~`) lists names, and the files in it keep theirs
    const hit = pathFinding(abs, 'read', glob, pctx) ?? secretNameFinding(abs, 'read', glob) ?? (opened.whole ? folderSecret(abs, pctx) : null);
    if (hit && (hit.rule.startsWith('secrets.') || hit.rule.startsWith('filesystem.deniedPaths')))
      return {
        rule: hit.rule,
        reason: `\`${inv.program}\` would let other users read ${abs === ctx.home ? 'the home folder and the keys in it' : abs.replace(UNKNOWN, '…')}, which holds credentials: give its owner alone access (\`chmod 600\`)`,
      };
  }
  return null;
}

/** The secret path a folder holds (SECRET_PATHS below it: the home holds `~/.ssh/*`, `~/.gnupg` its keys), as the rule that keeps it, or null. */
function folderSecret(abs: string, ctx: PathRuleContext): { rule: string } | null {
  const below = SECRET_PATHS.find((p) => resolvePath(p, ctx).startsWith(`${abs}/`));
  return below ? { rule: `secrets.paths: ${below}` } : null;
}
