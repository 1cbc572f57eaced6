/**
 * What writes a path, told once (path-uses.ts): the system family judges a program's writes by
 * the access kinds every path rule uses, so a downloader, sort, patch, an editor or sponge
 * writing a system file or a home dotfile is denied like cp or tee; the same programs writing in
 * the project or /tmp pass. Key generators write their keys (not reads of a secret), git's
 * sample hooks are not axme's, and nested loops over literal lists are answered within the work
 * budget. The context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { decide, safetyContext, testHoles } from './context.ts';

testHoles({
  // the system family reads a program's writes from pathUses: `-o`, `-O`, `--output-dir`, `-P`, an editor's files
  'downloaders write what -o / -O / --output-dir / -P name': [
    ['curl -o /tmp/x https://x.example.com/f', 'curl -o ~/.bashrc https://x.example.com/rc'],
    ['curl --output dist/x.json https://x.example.com/f', 'curl --output /etc/hosts https://x.example.com/h'],
    ['curl -sSLo tools/tool https://x.example.com/t', 'curl -o /usr/local/bin/tool https://x.example.com/t'],
    ['curl --output-dir downloads -O https://x.example.com/f', 'curl --output-dir /etc -O https://x.example.com/hosts'],
    ['wget -O /tmp/l http://x.example.com/l', 'wget -O /etc/apt/sources.list http://x.example.com/l'],
    ['wget -O vendor/lib.js http://x.example.com/l', 'wget -O ~/.zshrc http://x.example.com/rc'],
    ['wget -P vendor http://x.example.com/tool', 'wget -P ~/.local/bin http://x.example.com/tool'],
  ],
  'sort -o, patch and sponge write their files': [
    ['sort -o out.txt in.txt', 'sort -o /etc/hosts /etc/hosts'],
    ['sort -u -o words.txt words.txt', 'sort -o ~/.bashrc a'],
    ['patch src/app.ts < fix.diff', 'patch /etc/hosts < hosts.diff'],
    ['patch -p1 < fix.diff', 'patch ~/.bashrc < d'],
    ['patch -o out.ts src/app.ts fix.diff', 'patch -o /etc/hosts a d'],
    ['sponge out.txt < x', 'sponge ~/.bashrc < x'],
  ],
  'an editor writes the files it opens': [
    ['nano src/app.ts', 'nano ~/.bashrc'],
    ['vim README.md', 'vim /etc/hosts'],
    ['vi /tmp/notes.txt', 'vi ~/.profile'],
    ['emacs src/main.go', 'emacs ~/.bashrc'],
    ['ed notes.txt', 'ed /etc/hosts'],
    ['less /etc/hosts', 'code ~/.ssh/config'],
    // opened to view only, the file is read
    ['vim -R /etc/hosts', 'vim -R -c "w!" /etc/hosts'],
    ['view ~/.bashrc', 'vim -v ~/.bashrc'],
    ['nano -v /etc/hosts', 'nano -w /etc/hosts'],
  ],
  // what the system family knew that the access kinds did not, still known (now in path-uses.ts)
  'the specifics stay: dd of=, links beside, install -d, remote copies, non-recursive rm of a folder': [
    ['dd if=/dev/zero of=disk.img bs=1M count=1', 'dd if=/dev/zero of=/dev/sda'],
    ['ln -s /etc/hosts', 'ln -s /tmp/x ~/.bashrc'],
    ['install -d /tmp/a build/out', 'install -d /etc/myapp build'],
    ['scp dist/app.tgz host:/etc/app.tgz', 'scp host:/tmp/rc ~/.bashrc'],
    ['rsync -a dist/ deploy@host:/srv/app/', 'rsync -a conf/ /etc/nginx/'],
    ['truncate -r /etc/hosts -s 0 out.txt', 'truncate -s 0 ~/.bash_history'],
    ['touch -r /etc/hosts -d yesterday out.txt', 'touch /etc/cron.d/job'],
    ['mv build/a.txt /tmp/', 'mv ~/.bashrc /tmp/'],
    // an option's value after the operands is not the destination
    ['rsync -a conf/ backup/ --exclude .git', 'rsync -a conf/ /etc/nginx/ --exclude .git'],
    ['scp dist/app.tgz host:/tmp/ -P 22', 'scp dist/app.tgz /etc/app.tgz -P 22'],
  ],
  // `.git/hooks/*.sample` are git's examples, written at `git init`; axme's hooks are the others
  "git's sample hooks are not axme's": [
    ['rm -rf .git/hooks/pre-commit.sample', 'rm -rf .git/hooks'],
    ['rm .git/hooks/*.sample', 'rm .git/hooks/pre-commit'],
    ['rm -f .git/hooks/pre-push.sample .git/hooks/commit-msg.sample', 'rm -f .git/hooks/pre-push'],
    ['cp .git/hooks/pre-commit.sample /tmp/x', 'cp /tmp/x .git/hooks/pre-commit.sample.d'],
  ],
});

/**
 * Key generators write the keys they make and read what `-in`, `-key`, `-signkey`, `-y -f` name:
 * under the default policy, `*.pem` and `*.key` are secret names, which forbid reading only.
 */
describe('key generators write their keys; printing a key reads it', () => {
  const policy = defaultPolicy();
  const verdict = async (command: string) => {
    const v = await evaluateCommand(command, policy, safetyContext());
    return v.decision === 'allow' ? 'allow' : `${v.decision} [${v.rule}]`;
  };
  const pairs: Array<[string, string]> = [
    ['openssl req -x509 -newkey rsa:2048 -keyout key.pem -out cert.pem -nodes', 'openssl rsa -in key.pem -text'],
    ['openssl genrsa -out server.key 2048', 'openssl rsa -in server.key -pubout'],
    ['openssl req -new -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=x', 'openssl pkcs12 -in client.p12 -nodes'],
    // signing with a key uses it, printing none of it (key-files.ts); the key named another way is read
    ['openssl x509 -req -in server.csr -signkey server.key -out server.crt', 'openssl x509 -req -in server.key -signkey server.key -out server.crt'],
    ['openssl req -new -key server.key -out server.csr -subj /CN=x', 'openssl pkey -in server.key -text'],
    ['mkcert -key-file key.pem -cert-file cert.pem localhost', 'openssl x509 -in cert.pem -text'],
    ['openssl s_server -key key.pem -cert cert.pem', 'openssl pkcs12 -export -inkey key.pem -in cert.pem -out bundle.p12'],
    ['ssh-keygen -t ed25519 -f deploy/id_ed25519 -N ""', 'ssh-keygen -y -f id_rsa'],
    ['ssh-keygen -t rsa -b 4096 -C ci@x -f ./id_rsa -q -N ""', 'ssh-keygen -y -f deploy/id_ed25519 > deploy/id_ed25519.pub'],
    ['ssh-keygen -lf deploy/id_ed25519.pub', 'ssh-keygen -l -f ~/.ssh/id_rsa'],
  ];
  for (const [everyday, dangerous] of pairs) {
    test(`${everyday}  passes;  ${dangerous}  is denied`, async () => {
      assert.equal(await verdict(everyday), 'allow', everyday);
      assert.match(await verdict(dangerous), /^deny /, dangerous);
    });
  }
  test('the default policy still denies reading a key by its name', async () => {
    assert.match(await decide('cat key.pem'), /^deny /);
  });
});

/** A loop over `count` literal values: 1 … count, then `extra`. */
const loop = (name: string, count: number, extra = '') => `for ${name} in ${Array.from({ length: count }, (_, i) => i + 1).join(' ')}${extra}; do`;

testHoles({
  // bash runs the inner loop once per value of the outer: every combination, not the n-th with the n-th
  'nested loops run every combination of their values': [
    ['for a in src test; do for b in x y; do rm -rf "build/$a/$b"; done; done', 'for a in / x; do for b in y ""; do rm -rf "$a$b"; done; done'],
    ['for a in 1 2; do for b in 3 4; do rm -rf "out/$a$b"; done; done', 'for a in /e x; do for b in y tc; do rm -rf "$a$b"; done; done'],
    ['for f in a b; do for g in a b; do cp "$f" "$g.bak"; done; done', 'for d in ~ build; do for s in /.bashrc /x; do rm -f "$d$s"; done; done'],
    // two loops over the same values are two variables
    ['for a in x y; do for b in x y; do touch "out/$a$b"; done; done', 'for a in /e tc; do for b in /e tc; do rm -rf "$a$b"; done; done'],
    // 900 combinations, each checked
    [
      `${loop('a', 30)} ${loop('b', 30)} rm -rf "build/$a/$b"; done; done`,
      `${loop('a', 30, ' /e')} ${loop('b', 29).replace(' in ', ' in tc ')} rm -rf "$a$b"; done; done`,
    ],
  ],
});

describe('nested loops past the bound of combinations are denied as too long to check, at once', () => {
  // 27,000 and 16.8 million combinations: read as one command each, not checked one by one
  for (const command of [
    `${loop('a', 30)} ${loop('b', 30)} ${loop('c', 30)} rm -rf "build/$a/$b/$c"; done; done; done`,
    `${loop('a', 64)} ${loop('b', 64)} ${loop('c', 64)} ${loop('d', 64)} touch "tmp/$a-$b-$c-$d"; done; done; done; done`,
  ]) {
    test(command.slice(0, 60), async () => {
      assert.equal(await decide(command), 'deny [shell.too-deep]');
    });
  }
  test('loops that do not combine in one command are each checked: 4 loops of 64, each variable alone', async () => {
    const four = (last: string, body: string) => `${loop('a', 64)} ${loop('b', 64)} ${loop('c', 64)} ${last} ${body}; done; done; done; done`;
    assert.equal(await decide(four(loop('d', 64), 'touch "tmp/$d"')), 'allow');
    assert.equal(await decide(four(loop('d', 63, ' /'), 'rm -rf "$d"')), 'deny [rm.root]');
  });
});
