/**
 * Where axme keeps the URL a remote had when it removed it, renamed it away or unset its URL for an
 * agent in the kernel sandbox (docs/safety.md, "git's settings"): a section of the repository's own
 * git config, `[axme-former-remote "origin"] url = …`, written by axme's git line outside the
 * sandbox (the config is read-only inside it). The name added again, or given a URL again, is
 * judged against it as a moved remote is — by the sandbox's recording and by the guard — so
 * `git remote remove origin` then `git remote add origin <another host>` is not a new remote.
 */

/** The git config section holding the former URLs, one subsection per remote name. */
export const FORMER_REMOTE_SECTION = 'axme-former-remote';

/** The setting that holds the URL remote `name` had before axme removed it (subsection as written). */
export const formerRemoteKey = (name: string): string => `${FORMER_REMOTE_SECTION}.${name}.url`;
