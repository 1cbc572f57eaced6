/**
 * What a find expression removes or moves, and the first day's false alarms: a removing find from
 * `/` or the home folder reaches the guarded folders below its start, a find that moves what it
 * names moves it away, a pruned or negated name is kept out however it is grouped, the desktop's
 * junk files are no dotfiles, and ssh-keygen's `-R`/`-H` edit ~/.ssh/known_hosts. Each row:
 * [an everyday command that must pass, its dangerous neighbour that must be denied], in the
 * context of context.ts (the project /home/u/proj on main, home /home/u).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findRemoves } from '../../src/safety/find-expression.ts';
import { decide, testHoles } from './context.ts';

testHoles({
  // what a name test selects in every folder below the start: `/etc/hosts` from `/`, `~/.ssh/known_hosts` from `~`
  'a removing find reaches the guarded folders below its start': [
    ['find /tmp -name hosts -delete', 'find / -name hosts -delete'],
    ['find / -name hosts', "find / -name '*.pyc' -delete"],
    ['find / -path /tmp/foo -delete', "find / -path '*/ssh/*' -name '*.pub' -delete"],
    ['find / -maxdepth 1 -name foo -delete', 'find / -maxdepth 2 -name hosts -delete'],
    ['find ~/projects -name known_hosts -delete', 'find ~ -name known_hosts -delete'],
    ['find ~/.cache -name "*.tmp" -delete', 'find ~ -name authorized_keys -delete'],
    ["find ~ -name '.*' -prune -o -name '*.pyc' -print", 'find /home -name .bashrc -delete'],
    ['find /var/tmp -name hosts -delete', "find / -iname 'SSHD_CONFIG' -delete"],
    // a start the shell expands: each guarded folder the pattern may name is a start
    ["find src/* -name '*.o' -delete", 'find /* -name hosts -delete'],
    ['find /tmp/* -name x -delete', 'find ~/.s* -name known_hosts -delete'],
  ],
  // `-exec mv {} DIR` moves what the find names away, as `mv .claude /tmp/` does
  'a find that moves what it names moves it away': [
    ['find . -name "*.orig" -exec mv {} /tmp/ \\;', 'find . -name .claude -prune -exec mv {} /tmp/ \\;'],
    ['find . -name "*.log" -exec mv -t /tmp/logs {} +', 'find . -name .husky -exec mv {} /tmp/ \\;'],
  ],
  // a prune group with -o keeps what it names out, whatever the grouping; a negated path test keeps its files out
  'a pruned or negated name is kept out however it is grouped': [
    [
      "find . \\( -name node_modules -o -name .git \\) -prune -o -type f -name '*.bak' -exec rm {} +",
      'find . \\( -name node_modules -o -name .git \\) -prune -exec rm -rf {} +',
    ],
    ["find . \\( -path ./.git -o -path ./node_modules \\) -prune -o -name '*.orig' -exec rm {} +", 'find . \\( -name .claude \\) -prune -exec rm -rf {} +'],
    ["find . -not -path './.git/*' -type d -empty -delete", 'find .git -empty -type d -delete'],
    ["find . ! -path './.git/*' -type d -empty -delete", 'find . ! -empty -delete'],
  ],
  // Finder's and Explorer's metadata configure nothing: removed in the user's own home folder, not in the system's
  "the desktop's junk files are no dotfiles": [
    ['find ~ -name .DS_Store -delete', "find ~ -name '.D*' -delete"],
    ['rm ~/.DS_Store', 'rm /etc/.DS_Store'],
    ['rm ~/._notes.txt', 'rm ~/.notes.txt'],
    ['find ~ -name Thumbs.db -delete', "find ~ -name '*.db' -delete"],
    ["find ~ -name '._*' -delete", "find ~ -name '.*' -delete"],
    ['rm ~/.config/app/desktop.ini', 'rm ~/.config/app/settings.ini'],
  ],
  // without -f, `-R host` and `-H` edit ~/.ssh/known_hosts, as `-f ~/.ssh/known_hosts -R host` does
  "ssh-keygen's -R and -H edit ~/.ssh/known_hosts": [
    ['ssh-keygen -F host', 'ssh-keygen -R host'],
    ['ssh-keygen -R host -f ./known_hosts', 'ssh-keygen -H'],
  ],
});

/** Decisions the review asked about that were already so: each kept as it is, by docs/safety.md. */
test('find and ssh-keygen verdicts the review asked about stay as they are', async () => {
  const rows: Array<[string, RegExp]> = [
    // a removing find from the project's parent, from home, or of everything but .git: the removal rule's
    ['find .. -maxdepth 1 -exec rm -rf {} +', /^deny \[rm\.root\]/],
    ['find . -path ./.git -prune -o -exec rm -rf {} +', /^deny \[rm\.root\]/],
    ['find ~ -type f -newer x -delete', /^deny \[rm\.root\]/],
    ['find $HOME -delete', /^deny \[rm\.root\]/],
    ["find /etc -name '*.conf' -delete", /^deny \[families\.system: find -delete in \/etc\]/],
    ["find ~ -maxdepth 1 -name '.*rc' -delete", /^deny \[families\.system: find -delete of ~\/\.\*rc\]/],
    ['find ~/.ssh -type f -exec shred {} \\;', /^deny /],
    // everyday cleaning in the project
    ["find . -path ./node_modules -prune -o -name '*.orig' -delete", /^allow$/],
    ["find . -not -path './.git/*' -name '*.pyc' -delete", /^allow$/],
    ['find . -type d -name __pycache__ -prune -exec rm -rf {} +', /^allow$/],
    ["find . -name '.DS_Store' -delete", /^allow$/],
    ["find src -name '*.tmp' -print0 | xargs -0 rm -f", /^allow$/],
    ['find build -mindepth 1 -delete', /^allow$/],
    ['find . -empty -type d -delete', /^allow$/],
    // a key made in the user's ~/.ssh (the default file) or overwritten there is denied; in the project it is made
    ['ssh-keygen -t ed25519 -C me@x', /^deny \[secrets\.paths: ~\/\.ssh\/\*\]/],
    ["ssh-keygen -f ~/.ssh/id_ed25519 -N '' <<< y", /^deny /],
    ["ssh-keygen -t ed25519 -f ./deploy_key -N ''", /^allow$/],
    ['ssh-keygen -l -f key.pub', /^allow$/],
    ['ssh-keygen -y -f key', /^allow$/],
    ['ssh-keygen -y -f id_ed25519', /^deny /],
  ];
  for (const [command, verdict] of rows) assert.match(await decide(command), verdict, command);
});

// the reading recurses once per operator and group: a longer or deeper expression is not read, and may remove anything
test('a find expression too long or too deep to read may remove anything, and reading it never overflows the stack', () => {
  const chain = ['(', ...Array.from({ length: 60_000 }, (_, i) => (i ? ['-o', '-name', `x${i}`] : ['-name', 'x0'])).flat(), ')', '-delete'];
  const deep = [...Array<string>(20_000).fill('('), '-name', 'x', ...Array<string>(20_000).fill(')'), '-delete'];
  const file = { path: './src', name: 'src', dir: true, depth: 1 };
  const root = { path: '.', name: '.', dir: true, depth: 0 };
  for (const expression of [chain, deep]) assert.equal(findRemoves(expression)(file, [root]), true);
  // a short one is read: it removes only what it names
  assert.equal(findRemoves(['(', '-name', 'x0', '-o', '-name', 'x1', ')', '-delete'])(file, [root]), false);
});
