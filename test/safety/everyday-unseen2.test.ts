/**
 * A second day of commands nobody on this team wrote, from another corpus than
 * everyday-unseen.test.ts's: every whole command line of this machine's shell scripts (Debian's
 * maintainer scripts, the shell programs in /usr/bin and /usr/lib, git's own, node_modules'
 * `*.sh`), the EXAMPLES of its man pages, the shell blocks of its /usr/share/doc documents, and
 * what the agent clients' own docs show (test/fixtures/safety/everyday-unseen2.txt, each group
 * under a `#` line naming where it came from). No line is denied; an ask is the infra family's,
 * whose default is to ask (a cloud resource deleted, a policy set). The lines the docs deny by
 * design (writes into system folders and dotfiles, `rm -rf "$VAR"`, a private key read,
 * publishing, pushes to main, commits without the marker) are not in it. Beside it, the false
 * alarms it found, each with its dangerous neighbours that stay denied.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { decide, safetyContext, testAsks, testEverydayCorpus, testHoles } from './context.ts';

testEverydayCorpus('everyday-unseen2.txt', { name: 'the second unseen corpus', atLeast: 3000, infraAsks: true });

testHoles({
  // command-paths.ts landings: a recursive copy writes where each source lands in its destination, not all of it
  'a copy into a folder writes the copy, it reads nothing there': [
    ['cp -r templates ~/', 'cp -r .ssh ~/'],
    ['cp -a /usr/share/doc/ca-certificates/examples/ca-certificates-local ~/', 'cp -r dotfiles/. ~/'],
    ['rsync -a templates ~/', 'rsync -a dotfiles/ ~/'],
    ['cp -r a b ~/', 'cp -rT dotfiles ~'],
    ['scp -r host:dir ~/', 'cp -r build/* ~/'],
    ['cp -R fixtures ~/', 'cp -r $D ~/'],
    ['cp -r x ~', 'cp -r a keys/.gnupg ~/'],
    // what a copy reads is still read whole
    ['rsync -a templates ~/', 'rsync -a ~/ /tmp/h/'],
    ['cp -R fixtures ~/', 'cp -a ~/.ssh /tmp/x'],
  ],
  // path-access.ts landing: a source copied, moved or linked into a folder is written there under its own name
  'a source put into a folder lands there under its own name': [
    ['cp README.md ~/', 'cp .bashrc ~/'],
    ['mv notes.txt ~/', 'mv .bashrc ~/'],
    ['cp -t ~ notes.txt', 'cp -t ~ .bashrc'],
    ['cp -rt ~ templates', 'cp -rt ~ .ssh'],
    ['scp host:notes.txt ~/', 'scp host:.bashrc ~/'],
    ['rsync -a notes.txt ~/', 'rsync -a .zshrc ~/'],
    ['cp mod.py /tmp/site-packages/', 'cp x.pth ~/.local/lib/python3.11/site-packages/'],
    ['cp a.txt ..', 'cp .profile ..'],
    ['cd ~ && cp /tmp/x/notes.txt .', 'cd ~ && cp /tmp/x/.bashrc .'],
  ],
  // families/unknown.ts parts: a `_` joins one name (a function's, a test's, a task's), not a verb and its object
  'a snake_case word is one name, not a verb': [
    ['mytool deploy_docs', 'mytool deploy docs'],
    ['out test_publish', 'out publish'],
    ['mytool deploy_docs', 'mytool gh-deploy'],
    ['cov publish_coverage_report', 'cov publish'],
    ['task_runner promote_canary_tests', 'task_runner promote'],
    ['out test_publish', 'heroku container:release web'],
  ],
  // bash-rules.ts makesImageFile: the `mkfs` entry is a disk's; a filesystem made in a file is an image
  'a filesystem made in an image file': [
    ['mkfs.btrfs /tmp/x.img', 'mkfs.btrfs /dev/sdb'],
    ['mkfs.ext4 -F disk.img 100M', 'cd /dev && mkfs.ext4 sdb1'],
    ['mke2fs -t ext4 build/rootfs.img', 'mke2fs -t ext4 /dev/nvme0n1p2'],
    ['mkfs.fat -C efi.img 65536', 'mkfs.fat $DEV'],
    ['truncate -s 1G /tmp/x.img && mkfs.ext4 /tmp/x.img', 'mkfs.ext4 /tmp/../dev/sda'],
    ['mkfs -t ext2 -L data /tmp/fs.img', 'mkfs -t ext2 /dev/loop0'],
    ['sudo mkfs.ext4 ~/vm/disk.img', 'sudo mkfs.ext4 /dev/disk/by-id/ata-x'],
    ['mkdosfs -C floppy.img 1440', 'mkdosfs /dev/sdc1'],
    ['mkfs.xfs -f images/data.raw', 'mkfs.xfs /dev/sd*'],
    ['mkfs.ext4 ./rootfs.ext4', 'mkfs.ext4 "$(losetup -f)"'],
  ],
});

testAsks({
  // an infra verb spelled apart still aims at its target
  'a snake_case word is one name, not an infra verb and its target': [['mytool delete_cluster', 'mytool delete cluster']],
});

test('an option name still splits at _ (`--stack_name` names a stack)', async () => {
  assert.match(await decide('sam delete --stack_name x'), /^ask \[families\.infra: /);
});
