// A whole section of git's settings removed or renamed takes its keys with it: `git config
// --remove-section core` drops core.hooksPath and core.fsmonitor as `--unset core.hooksPath` does
// (and the repository's format settings besides). Sections holding no guarded key stay everyday.
import { testHoles } from './context.ts';

testHoles({
  'the core section removed or renamed (core.hooksPath with it)': [
    ['git config --remove-section alias', 'git config --remove-section core'],
    ['git config --remove-section branch.feature', 'git config --rename-section core old'],
    ['git config --rename-section branch.a branch.b', 'git config remove-section core'],
    ['git config --local --remove-section remote.old', 'git config --local --remove-section CORE'],
    ['git config --get-regexp "^core\\."', 'git config rename-section core x'],
  ],
});
