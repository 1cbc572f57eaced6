/**
 * One reading of a git subcommand's words for the gitHistory family (families/git-options.ts
 * splitOptions, one table of git branch's options and one of fetch's and pull's): long options
 * spelled out as git expands a unique prefix, short ones in clusters, the options that take the
 * next word. The fetch check and the branch-listing check each scanned words on their own before:
 * an abbreviated `--forc` was no force, and `--abbrev` (which takes no next word) hid a listing's
 * pattern.
 */
import { testHoles } from './context.ts';

testHoles({
  'fetch and pull read as git reads them': [
    ['git fetch --prune origin', "git fetch --forc origin '+refs/heads/*:refs/heads/*'"],
    ['git fetch --depth 1 origin main', "git fetch -fj 4 origin 'refs/heads/*:refs/heads/*'"],
  ],
  'a branch listing read as git reads it': [
    ["git branch --list --abbrev 'feat/*' | xargs git branch -D", 'git branch --list --abbrev | xargs git branch -D'],
    ["git branch --column=never --list 'fix/*' | xargs git branch -d", 'git branch --no-color | xargs git branch -D'],
  ],
});
