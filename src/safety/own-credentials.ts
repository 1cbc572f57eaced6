import { HOME_CREDENTIALS } from '../model/home-credentials.ts';
import type { Invocation } from './command.ts';
import type { PathUse } from './path-access.ts';

/**
 * A credential handed to the program it is for (docs/safety.md, "Credentials and paths spelled
 * another way"): `kubectl --kubeconfig ~/.kube/prod.yaml get ns`, `helm --kubeconfig=… list`.
 * The program takes the file as it takes it from its default place (`~/.kube/config`,
 * `$KUBECONFIG`, which pass), and shows none of it: the use is `own`, which the credential rule
 * lets through for that credential only (path-rules.ts). Another credential handed so
 * (`kubectl --kubeconfig ~/.ssh/id_rsa`), a link to one, and what prints the file
 * (`kubectl config view --raw`, credentials.ts) stay denied.
 */

/** Each program's options that name a credential it takes (HOME_CREDENTIALS `takenBy`). */
const OWN_OPTIONS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const m = new Map<string, Set<string>>();
  for (const c of HOME_CREDENTIALS) {
    if (!c.takenBy) continue;
    for (const p of c.takenBy.programs) {
      const set = m.get(p) ?? new Set<string>();
      for (const o of c.takenBy.options) set.add(o);
      m.set(p, set);
    }
  }
  return m;
})();

/** `uses` (path-uses.ts) with the file an option of the program names as its own credential used as `own`: handed over, not read out. */
export function ownCredentialUses(inv: Invocation, uses: PathUse[]): PathUse[] {
  const options = OWN_OPTIONS.get(inv.program);
  if (!options || showsKubeconfig(inv)) return uses;
  const named = new Set<unknown>();
  inv.args.forEach((w, i) => {
    const eq = w.value.indexOf('=');
    if (eq > 0 && w.value.startsWith('--') && options.has(w.value.slice(0, eq))) named.add(w);
    else if (options.has(w.value) && inv.args[i + 1]) named.add(inv.args[i + 1]);
  });
  if (!named.size) return uses;
  return uses.map((u): PathUse => (named.has(u.word) && u.access === 'read' ? { ...u, access: 'own' } : u));
}

/** `kubectl config view --raw` (`oc` too): the kubeconfig printed with its keys and tokens — the file handed to it is read out. */
function showsKubeconfig(inv: Invocation): boolean {
  const words = inv.args.map((w) => w.value);
  const at = words.indexOf('config');
  return at >= 0 && words[at + 1] === 'view' && words.includes('--raw');
}
