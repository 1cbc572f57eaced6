/**
 * cargo-release runs its steps in order — version, replace, hook, commit, publish, owner, tag, push —
 * and `--execute` does them; only publish, owner, tag and push reach past the clone (crates.io, the
 * remote; a tag is a release step, as `git tag` is). A run that leaves those out by its flags
 * (`--no-publish --no-tag --no-push`, bevy's version bump), or one of the other steps named first
 * (`cargo release version minor -x`), bumps versions, runs the project's own pre-release hook and
 * commits in the clone, as `npm version` does.
 */

/** The steps that stay in the clone (`changes` and `config` only print), named right after `release`. */
const CLONE_STEPS = new Set(['version', 'replace', 'hook', 'commit', 'changes', 'config']);
/** The steps that publish, tag or push, which no word of a full run may name. */
const OUTWARD_STEPS = new Set(['publish', 'owner', 'tag', 'push']);
/** The flags that, all three, leave publishing, tagging and pushing out of a full run. */
const STAY_LOCAL = ['--no-publish', '--no-tag', '--no-push'];

/** Whether `cargo release` with `args` (from after `release`) changes only the clone. */
export function cargoReleaseStaysLocal(args: readonly string[]): boolean {
  if (CLONE_STEPS.has(args[0] ?? '')) return true;
  return STAY_LOCAL.every((f) => args.includes(f)) && !args.some((a) => OUTWARD_STEPS.has(a));
}
