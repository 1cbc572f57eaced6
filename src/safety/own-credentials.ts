import { HOME_CREDENTIALS } from '../model/home-credentials.ts';
import type { Invocation } from './command.ts';
import type { PathUse } from './path-access.ts';
import { plainWord } from './syntax.ts';

/**
 * A credential handed to the program it is for (docs/safety.md, "Credentials and paths spelled
 * another way"): `kubectl --kubeconfig ~/.kube/prod.yaml get ns`, `helm --kubeconfig=… list`,
 * `rclone --config ~/.config/rclone/rclone.conf lsf r:`, or as the operand of a subcommand that
 * prints none of it (`security show-keychain-info ~/Library/Keychains/login.keychain-db`).
 * The program takes the file as it takes it from its default place (`~/.kube/config`,
 * `$KUBECONFIG`, which pass), and shows none of it: the use is `own`, which the credential rule
 * lets through for the credentials so taken (path-rules.ts). Another credential handed so
 * (`kubectl --kubeconfig ~/.ssh/id_rsa`), a link to one, and what prints the file
 * (`kubectl config view --raw`, `rclone config show`: SHOWN) stay denied — and such a printer
 * handed no file reads the one at its default place (`kubectl config view --raw` alone is
 * `cat ~/.kube/config`).
 */

/** Each program's options that name a credential it takes, its subcommands that take one as an operand, and the credentials' paths (HOME_CREDENTIALS `takenBy`). */
const OWN: ReadonlyMap<string, { options: ReadonlySet<string>; verbs: ReadonlySet<string>; paths: ReadonlySet<string> }> = (() => {
  const m = new Map<string, { options: Set<string>; verbs: Set<string>; paths: Set<string> }>();
  for (const c of HOME_CREDENTIALS) {
    if (!c.takenBy) continue;
    for (const p of c.takenBy.programs) {
      const entry = m.get(p) ?? { options: new Set<string>(), verbs: new Set<string>(), paths: new Set<string>() };
      for (const o of c.takenBy.options) entry.options.add(o);
      for (const v of c.takenBy.verbs ?? []) entry.verbs.add(v);
      entry.paths.add(c.path);
      m.set(p, entry);
    }
  }
  return m;
})();

/** The paths of every credential some program takes so: one of them handed to another program is not its own. */
const TAKEN_PATHS: readonly string[] = HOME_CREDENTIALS.filter((c) => c.takenBy).map((c) => c.path);

/**
 * Whether `value` may name one of `own` paths: it climbs out of no folder (`..`) and names no
 * credential another program takes (`kubectl --kubeconfig ~/.config/rclone/rclone.conf`,
 * `axme audit ~/.kube/config`: another program's file, not this one's).
 */
function mayBeOwn(value: string, own: ReadonlySet<string>): boolean {
  if (/(^|\/)\.\.(\/|$)/.test(value)) return false;
  return !TAKEN_PATHS.some((p) => !own.has(p) && (value.includes(`/${p}/`) || value.endsWith(`/${p}`) || value.startsWith(`${p}/`) || value === p));
}

/**
 * The subcommands that print a program's credential file whole, and where it reads the file when
 * no option names one: the kubeconfig with its keys and tokens (`kubectl config view --raw`; an
 * output template that names no user's entry prints none: `-o jsonpath='{.clusters[0].cluster.server}'`),
 * rclone's remotes with their keys (`rclone config show`, `config dump`; `config redacted` hides them).
 */
const SHOWN: Readonly<Record<string, { shows: (words: readonly string[]) => boolean; file: string }>> = {
  kubectl: { shows: showsKubeconfig, file: '~/.kube/config' },
  oc: { shows: showsKubeconfig, file: '~/.kube/config' },
  rclone: { shows: (words) => subcommandPair(words, 'config', ['show', 'dump']), file: '~/.config/rclone/rclone.conf' },
};

/** `uses` (path-uses.ts) with the file an option of the program names as its own credential used as `own`: handed over, not read out. */
export function ownCredentialUses(inv: Invocation, uses: PathUse[]): PathUse[] {
  const own = OWN.get(inv.program);
  if (!own) return uses;
  const words = inv.args.map((w) => w.value);
  const named = new Set<unknown>();
  inv.args.forEach((w, i) => {
    const eq = w.value.indexOf('=');
    if (eq > 0 && w.value.startsWith('--') && own.options.has(w.value.slice(0, eq))) named.add(w);
    else if (own.options.has(w.value) && inv.args[i + 1]) named.add(inv.args[i + 1]);
  });
  const shown = Object.hasOwn(SHOWN, inv.program) ? SHOWN[inv.program]! : null;
  if (shown?.shows(words)) {
    // what prints the file: the one an option names is read out, else the one at its default place
    return named.size ? uses : [...uses, { word: plainWord(shown.file), value: shown.file, access: 'read' }];
  }
  const verb = words.find((w) => !w.startsWith('-'));
  const handed = verb !== undefined && own.verbs.has(verb);
  if (!named.size && !handed) return uses;
  return uses.map(
    (u): PathUse =>
      (named.has(u.word) || (handed && u.word.value !== verb)) && u.access === 'read' && mayBeOwn(u.value, own.paths) ? { ...u, access: 'own' } : u,
  );
}

/** `kubectl config view --raw` (`oc` too): the kubeconfig printed with its keys and tokens, unless an output template picks no user's entry. */
function showsKubeconfig(words: readonly string[]): boolean {
  if (!subcommandPair(words, 'config', ['view']) || !words.includes('--raw')) return false;
  const at = words.findIndex((w) => w === '-o' || w === '--output' || /^(-o|--output=)/.test(w));
  if (at < 0) return true;
  const format =
    words[at]!.length > 2 && !words[at]!.startsWith('--output')
      ? words[at]!.slice(2)
      : words[at]!.includes('=')
        ? words[at]!.slice(words[at]!.indexOf('=') + 1)
        : (words[at + 1] ?? '');
  // yaml and json print every entry; a template prints what it names
  return !/^(jsonpath|go-template|template)/.test(format) || /user|token|key|password|auth/i.test(format);
}

/** Whether `first` is a subcommand followed by one of `second` (`config view`). */
function subcommandPair(words: readonly string[], first: string, second: readonly string[]): boolean {
  const at = words.indexOf(first);
  return at >= 0 && second.includes(words[at + 1] ?? '');
}
