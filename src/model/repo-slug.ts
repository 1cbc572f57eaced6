/**
 * A hosted repository's `<owner>/<name>`, as its host names it: the one definition for the
 * `#!axme` marker's `repo=` and the GitHub calls (`axme propose --repo`). An owner may hold `_`
 * (GitHub's managed users, `user_shortcode`) and `.` (other hosts' groups); a name made only of
 * dots would name a folder, not a repository.
 */
export const REPO_SLUG_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,38}\/(?!\.+$)[A-Za-z0-9._-]{1,100}$/;
