/**
 * The system and git-history families (src/safety/families/system.ts, git-history.ts) through
 * evaluateCommand: each dangerous spelling next to a harmless neighbour that must stay allowed,
 * and the policy's `families.system` / `families.gitHistory` switching the verdict. The context
 * is corpus.test.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_RULES, type FamilyAction, type RulesData } from '../../src/model/safety-defaults.ts';
import { type EvalContext, evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy, type Policy, policyFromRules } from '../../src/safety/policy.ts';
import { safetyContext } from './context.ts';

const ctx = safetyContext;

/** A policy from the default rules with some parts changed. */
function policyWith(change: (r: RulesData) => void): Policy {
  const rules = structuredClone(DEFAULT_RULES) as RulesData;
  change(rules);
  return policyFromRules(rules);
}
const families = (system: FamilyAction, gitHistory: FamilyAction) =>
  policyWith((r) => {
    r.families.system = system;
    r.families.gitHistory = gitHistory;
  });

/** [command, expected decision, substring of the rule that decides (deny/ask rows)] */
type Row = [string, 'allow' | 'deny' | 'ask', string?];

function table(rows: readonly Row[], policy: Policy = defaultPolicy(), over: Partial<EvalContext> = {}): void {
  for (const [command, expected, rule] of rows) {
    test(`${expected}: ${command}`, async () => {
      const v = await evaluateCommand(command, policy, ctx(over));
      assert.equal(v.decision, expected, `${command} -> ${v.decision} [${v.rule}] ${v.reason}`);
      if (rule) assert.ok(v.rule?.includes(rule), `${command}: rule ${v.rule} should name ${rule}`);
      if (expected !== 'allow') assert.ok(v.reason, 'a reason is given');
    });
  }
}

describe('system family: writes into system paths and dotfiles', () => {
  describe('redirections', () => {
    table([
      ['echo x > /etc/hosts', 'deny', 'families.system: redirect into /etc'],
      ['echo x > ./build.log', 'allow'],
      ['echo x >> /usr/local/bin/tool', 'deny', 'redirect into /usr'],
      ['echo x >> build/out.txt', 'allow'],
      ['make >| /var/log/build.log', 'deny', 'redirect into /var'],
      ['make >| /var/tmp/build.log', 'allow'],
      ['make &> /opt/app/log', 'deny', 'redirect into /opt'],
      ['make &> /tmp/log', 'allow'],
      ['make &>> /srv/log', 'deny', 'redirect into /srv'],
      ['make &>> logs/make.log', 'allow'],
      ['make 2> /root/err', 'deny', 'redirect into /root'],
      ['make 2>&1 | tee build.log', 'allow'],
      ['make 1> /boot/x', 'deny', 'redirect into /boot'],
      ['make > /dev/null 2>&1', 'allow'],
      ['make > /dev/stdout', 'allow'],
      ['make 2> /dev/stderr', 'allow'],
      ['echo hi > /dev/tty', 'allow'],
      ['echo hi > /dev/fd/3', 'allow'],
      ['cat img > /dev/sda', 'deny', 'redirect into /dev/sda'],
      ['cat img > /dev/nvme0n1p1', 'deny', 'redirect into /dev/nvme0n1p1'],
      ['echo 1 > /proc/sys/vm/drop_caches', 'deny', 'redirect into /proc'],
      ['echo 1 > /sys/class/leds/x/brightness', 'deny', 'redirect into /sys'],
      ['echo x > /Library/LaunchDaemons/x.plist', 'deny', 'redirect into /Library'],
      ['echo x > /private/etc/hosts', 'deny', 'redirect into /private/etc'],
      ['echo x > /lib64/x', 'deny', 'redirect into /lib64'],
      ['> /etc/motd', 'deny', 'redirect into /etc'],
      ['> out.txt', 'allow'],
      ['echo x > ~/.bashrc', 'deny', 'redirect into ~/.bashrc'],
      ['echo x > ~/notes.txt', 'allow'],
      ['echo x >> $HOME/.zshrc', 'deny', 'redirect into ~/.zshrc'],
      ['echo x >> "$HOME/.profile"', 'deny', 'redirect into ~/.profile'],
      ['echo x > ~/.cache', 'deny', 'redirect into ~/.cache'],
      ['echo x > ~/.cache/tool/state', 'allow'],
      ['echo k >> ~/.ssh/authorized_keys', 'deny', 'redirect into ~/.ssh'],
      ['echo k >> ~/.config/gh/hosts.yml', 'deny', 'secrets.paths: ~/.config/gh/hosts.yml'],
      ['echo k >> ~/.aws/config', 'deny', 'redirect into ~/.aws'],
      ['echo k >> ~/.kube/config', 'deny', 'secrets.paths: ~/.kube/*'],
      ['echo k >> ~/.docker/config.json', 'deny', 'secrets.paths: ~/.docker/config.json'],
      ['echo k >> ~/.claude/CLAUDE.md', 'deny', 'redirect into ~/.claude'],
      ['echo k > ~/.npmrc', 'deny', 'secrets.paths: ~/.npmrc'],
      ['cat ~/.bashrc', 'allow'],
      ['cat /etc/hosts > hosts.copy', 'allow'],
      ['echo x > /usr/local/bin/$NAME', 'deny', 'redirect into /usr'],
      ['echo x > ~/.kube/$NAME', 'deny', 'secrets.paths: ~/.kube/*'],
      ['echo x > "$DIR/hosts"', 'allow'],
      ['sudo bash -c "echo x >> /etc/hosts"', 'deny', 'redirect into /etc'],
    ]);
  });

  describe('the project and /tmp stay silent wherever they are', () => {
    table(
      [
        ['echo x > config/app.conf', 'allow'],
        ['echo x > /opt/app/config/app.conf', 'allow'],
        ['cp build/app /opt/app/bin/app', 'allow'],
        ['echo x > /opt/other/app.conf', 'deny', 'redirect into /opt'],
      ],
      defaultPolicy(),
      {
        cwd: '/opt/app',
        root: '/opt/app',
      },
    );
    table([
      ['echo x > /tmp/x', 'allow'],
      ['cd /etc && echo x > hosts', 'deny', 'redirect into /etc'],
      ['cd "$X" && echo x > hosts', 'allow'],
      ['cd "$X" && echo x > /etc/hosts', 'deny'],
    ]);
  });

  describe('programs that write files', () => {
    table([
      ['echo x | sudo tee -a /etc/sudoers', 'deny', 'tee into /etc'],
      ['npm test | tee dist/out.txt', 'allow'],
      ['tee ~/.gitconfig < cfg', 'deny', 'tee into ~/.gitconfig'],
      ['tee -a build.log /dev/null < x', 'allow'],
      ['cp hosts /etc/hosts', 'deny', 'cp into /etc'],
      ['cp a /tmp/b', 'allow'],
      ['cp -t /usr/local/bin tool', 'deny', 'cp into /usr'],
      ['cp --target-directory=/usr/local/bin tool', 'deny', 'cp into /usr'],
      ['cp -t dist tool', 'allow'],
      ['cp /etc/hosts ./hosts', 'allow'],
      ['cp -r ~/.ssh/config.d backup/', 'allow'],
      ['mv tool /usr/local/bin/', 'deny', 'mv into /usr'],
      ['mv a.txt b.txt', 'allow'],
      ['mv /etc/hosts /tmp/hosts.bak', 'deny', 'mv in /etc'],
      ['mv ~/.bashrc ~/bashrc.old', 'deny', 'mv ~/.bashrc'],
      ['mv ~/notes.txt ./notes.txt', 'allow'],
      ['install -m 755 build/app /usr/local/bin/app', 'deny', 'install into /usr'],
      ['install -m 755 build/app dist/app', 'allow'],
      ['install -d /etc/myapp', 'deny', 'install into /etc'],
      ['install -d build/out', 'allow'],
      ['ln -sf /usr/bin/python3 /usr/local/bin/python', 'deny', 'ln into /usr'],
      ['ln -s ../shared/config.ts src/config.ts', 'allow'],
      ['ln -s ~/dotfiles/bashrc ~/.bashrc', 'deny', 'ln into ~/.bashrc'],
      ['ln -s /etc/hosts', 'allow'],
      ['rsync -av dist/ /var/www/html/', 'deny', 'rsync into /var'],
      ['rsync -av dist/ deploy@host:/var/www/html/', 'allow'],
      ['rsync -av --exclude .git src/ /tmp/src/', 'allow'],
      ['scp host:/etc/hosts /etc/hosts', 'deny', 'scp into /etc'],
      ['scp build.tgz host:/etc/', 'allow'],
      ['dd if=/dev/zero of=/etc/fstab bs=1 count=0', 'deny'],
      ['dd of=/boot/vmlinuz', 'deny', 'dd into /boot'],
      ['dd if=/dev/zero of=disk.img bs=1M count=10', 'allow'],
      ['dd if=/dev/zero of=/dev/nvme0n1p2 bs=1M', 'deny', 'dd into /dev/nvme0n1p2'],
      ['dd of=disk.img', 'allow'],
      ["sed -i 's/a/b/' /etc/ssh/sshd_config", 'deny', 'sed -i into /etc'],
      ["sed -i 's/a/b/' src/utils.ts", 'allow'],
      ["sed -i.bak -e 's/a/b/' ~/.zshrc", 'deny', 'sed -i into ~/.zshrc'],
      ["sed -Ei 's/a/b/' ~/.profile", 'deny', 'sed -i into ~/.profile'],
      ["sed -i '/etc/d' notes.txt", 'allow'],
      ["sed -i '' 's/a/b/' /etc/hosts", 'deny', 'sed -i into /etc'],
      ["sed 's/a/b/' /etc/hosts > hosts.new", 'allow'],
      ['truncate -s 0 /etc/passwd', 'deny'],
      ['truncate -s 0 ~/.bashrc', 'deny', 'truncate ~/.bashrc'],
      ['truncate -s 0 build.log', 'allow'],
      ['shred -u ~/.zshrc', 'deny', 'shred ~/.zshrc'],
      ['shred -u secrets.tmp', 'allow'],
      ['rm ~/.bashrc', 'deny', 'rm ~/.bashrc'],
      ['rm ~/nohup.out', 'allow'],
      ['rm -f /usr/local/bin/tool', 'deny', 'rm in /usr'],
      ['rm -f /tmp/tool', 'allow'],
      ['rm -rf ~/.ssh', 'deny', 'rm ~/.ssh'],
      ['rm -rf ~/.cache/tool', 'allow'],
      ['rm -rf ~/.config/gh', 'deny', 'rm in ~/.config'],
      ['rm -rf /etc', 'deny', 'rm.root'],
      ['rm /etc', 'allow'],
      ['unlink ~/.gitconfig', 'deny', 'unlink ~/.gitconfig'],
      ['unlink build/link', 'allow'],
    ]);
  });

  describe('in-place edits, archives, find, other homes, devices, PATH', () => {
    table([
      ["perl -pi -e 's/a/b/' ~/.bashrc", 'deny', 'perl -i into ~/.bashrc'],
      ["perl -pi -e 's/\\r\\n/\\n/' scripts/build.sh", 'allow'],
      ["perl -i -pe 's/a/b/' /etc/hosts", 'deny', 'perl -i into /etc'],
      ["perl -i.bak -pe 's/a/b/' /etc/hosts", 'deny', 'perl -i into /etc'],
      ["perl -0777 -pi -e 's/a/b/' ~/.zshrc", 'deny', 'perl -i into ~/.zshrc'],
      ['perl -i fix.pl /etc/hosts', 'deny', 'perl -i into /etc'],
      ['perl -i fix.pl src/a.ts', 'allow'],
      ["perl -ne 'print' /etc/hosts", 'allow'],
      ["awk -i inplace '{print}' ~/.bashrc", 'deny', 'awk -i inplace into ~/.bashrc'],
      ["gawk -i inplace '{print}' /etc/hosts", 'deny', 'gawk -i inplace into /etc'],
      ["gawk -iinplace -v x=1 '{print}' ~/.profile", 'deny', 'gawk -i inplace into ~/.profile'],
      ["gawk --include=inplace '{print}' /etc/fstab", 'deny', 'gawk -i inplace into /etc'],
      ["gawk -i inplace '{print}' src/a.txt", 'allow'],
      ["gawk -i inplace '/etc/ {print}' notes.txt", 'allow'],
      ["awk '{print}' /etc/hosts", 'allow'],
      ['tar -xf x.tar -C ~', 'deny', 'tar -x into ~'],
      ['tar -xzf x.tgz -C /etc', 'deny', 'tar -x into /etc'],
      ['tar xf x.tar --directory=/usr', 'deny', 'tar -x into /usr'],
      ['tar -C ~/.kube -xf cfg.tar', 'deny', 'tar -x into ~/.kube'],
      ['tar xzfC x.tgz /etc', 'deny', 'tar -x into /etc'],
      ['sudo tar -xpf backup.tar --directory /', 'deny', 'tar -x into /'],
      ['cd ~ && tar -xf x.tar', 'deny', 'tar -x into ~'],
      ['tar -xzf vendor/protoc.tar.gz -C tools/', 'allow'],
      ['tar -xf x.tar', 'allow'],
      ['tar -tzf x.tgz -C /etc', 'allow'],
      ['tar -czf dist/app.tar.gz -C build .', 'allow'],
      ['unzip -o x.zip -d ~/.ssh', 'deny', 'unzip into ~/.ssh'],
      ['unzip x.zip -d ~', 'deny', 'unzip into ~'],
      ['unzip -qo x.zip -d/etc', 'deny', 'unzip into /etc'],
      ['unzip -o artifacts.zip -d artifacts/', 'allow'],
      ['unzip -l x.zip', 'allow'],
      ['find ~/.ssh -type f -delete', 'deny', 'find -delete in ~/.ssh'],
      ["find /etc -name '*.conf' -delete", 'deny', 'find -delete in /etc'],
      ["find -L /usr/local/lib -name '*.pyc' -delete", 'deny', 'find -delete in /usr'],
      ['find ~/.local/bin -name x -exec rm {} +', 'deny', 'find -delete in ~/.local/bin'],
      ["find . -name '*.o' -delete", 'allow'],
      ["find /etc -name '*.conf'", 'allow'],
      ["find /var/tmp -name 'x*' -delete", 'allow'],
      ['find ~/.cache -type f -atime +30 -delete', 'allow'],
      ['echo x >> ~bob/.bashrc', 'deny', 'redirect into ~bob/.bashrc'],
      ['echo x > ~bob/notes.txt', 'allow'],
      ['cp key.pub ~bob/.ssh/authorized_keys', 'deny', 'cp into ~bob/.ssh'],
      ['cp x ~root/.ssh/authorized_keys', 'deny', 'cp into /root'],
      ['cat ~bob/.bashrc', 'allow'],
      ['chown -R dev ~bob', 'deny', 'chown -R ~bob'],
      ['cat disk.img > /dev/md0', 'deny', 'redirect into /dev/md0'],
      ['cp disk.img /dev/loop0', 'deny', 'cp into /dev/loop0'],
      ['dd of=/dev/mapper/vg-root', 'deny', 'dd into /dev/mapper/vg-root'],
      ['dd of=/dev/disk/by-id/usb-x', 'deny', 'dd into /dev/disk/by-id/usb-x'],
      ['dd of=/dev/dm-0', 'deny', 'dd into /dev/dm-0'],
      ['dd of=/dev/nbd0', 'deny', 'dd into /dev/nbd0'],
      ['dd of=/dev/md/raid1', 'deny', 'dd into /dev/md/raid1'],
      ['echo x > /dev/null', 'allow'],
      ['echo x > /dev/shm/x', 'allow'],
      ['cp tool ~/.local/bin/tool', 'deny', 'cp into ~/.local/bin'],
      ['ln -s "$PWD/bin/cli" ~/.local/bin/cli', 'deny', 'ln into ~/.local/bin'],
      ['ls ~/.local/bin', 'allow'],
      ['cp cache.db ~/.local/share/app/cache.db', 'allow'],
      ['echo x > ~/.bashrc.d/x.sh', 'deny', 'redirect into ~/.bashrc.d'],
      ['cat ~/.bashrc.d/x.sh', 'allow'],
    ]);
  });

  describe('permission changes without -R', () => {
    table([
      ['chmod 000 ~/.ssh', 'deny', 'chmod ~/.ssh'],
      ['chmod 700 ~/.ssh', 'allow'],
      ['chmod -x ~/.ssh', 'deny', 'chmod ~/.ssh'],
      ['chmod go-rwx ~/.ssh', 'allow'],
      ['chmod 600 ~/.ssh', 'deny', 'chmod ~/.ssh'],
      ['chmod 644 ~/.ssh/known_hosts', 'allow'],
      ['chmod a-r ~/.gnupg', 'deny', 'chmod ~/.gnupg'],
      ['chmod 600 ~/.netrc', 'allow'],
      ['chmod o+w ~/.bashrc', 'deny', 'chmod ~/.bashrc'],
      ['chmod u= ~/.bashrc', 'deny', 'chmod ~/.bashrc'],
      ['chmod -w ~/.bashrc', 'allow'],
      ['chmod u+s ~/.local/bin/x', 'deny', 'chmod in ~/.local/bin'],
      ['chmod -x /usr/bin/ls', 'deny', 'chmod /usr'],
      ['chmod 644 /etc/hosts', 'deny', 'chmod /etc'],
      ['chmod 755 /tmp/x', 'allow'],
      ['chmod +x scripts/run.sh', 'allow'],
    ]);
  });

  describe('recursive ownership and permission changes', () => {
    table([
      ['chown -R dev /etc', 'deny', 'chown -R /etc'],
      ['chown -R dev build/', 'allow'],
      ['chown -R dev ~', 'deny', 'chown -R ~'],
      ['chown dev ~', 'allow'],
      ['chown -R nobody /', 'deny', 'chown -R /'],
      ['chgrp -R staff /usr', 'deny', 'chgrp -R /usr'],
      ['chgrp -R staff dist', 'allow'],
      ['chown -R "$(whoami)" ~/.npm', 'deny', 'chown -R ~/.npm'],
      ['chmod -R u+w ~/.ssh', 'deny', 'chmod -R ~/.ssh'],
      ['chmod -R u+w build', 'allow'],
      ['chmod -R -w /etc', 'deny', 'chmod -R /etc'],
      ['chmod +x scripts/run.sh', 'allow'],
      ['chown -R dev /home', 'deny', 'chown -R /home'],
    ]);
  });

  describe('crontab, firewall, every process, remote access', () => {
    table([
      ['crontab -r', 'deny', 'crontab -r'],
      ['crontab -ir', 'deny', 'crontab -r'],
      ['crontab -l', 'allow'],
      ['crontab -l > cron.backup', 'allow'],
      ['echo "* * * * * x" | crontab -', 'deny', 'crontab <file>'],
      ['crontab jobs.txt', 'deny', 'crontab <file>'],
      ['iptables -F', 'deny', 'iptables -F'],
      ['sudo ip6tables --flush', 'deny', 'ip6tables --flush'],
      ['iptables -t nat -X', 'deny', 'iptables -X'],
      ['iptables -L -n', 'allow'],
      ['ufw disable', 'deny', 'ufw disable'],
      ['ufw --force reset', 'deny', 'ufw reset'],
      ['ufw status verbose', 'allow'],
      ['nft flush ruleset', 'deny', 'nft flush ruleset'],
      ["nft 'flush ruleset'", 'deny', 'nft flush ruleset'],
      ['nft list ruleset', 'allow'],
      ['kill -9 -1', 'deny', 'kill -1'],
      ['kill -KILL -1', 'deny', 'kill -1'],
      ['kill -s KILL -- -1', 'deny', 'kill -1'],
      ['kill -9 1234', 'allow'],
      ['kill -1 1234', 'allow'],
      ['kill -l', 'allow'],
      ['pkill -9 -u u', 'deny', 'pkill -u'],
      ['pkill -KILL -u dev', 'deny', 'pkill -u'],
      ['pkill -u "$USER"', 'deny', 'pkill -u'],
      ['pkill --euid u', 'deny', 'pkill -u'],
      ['pkill -u u -f .', 'deny', 'pkill -u'],
      ['pkill -u u node', 'allow'],
      ['pkill -f -u u "node server.js"', 'allow'],
      ['pkill -t pts/3 -u u', 'allow'],
      ['pkill node', 'allow'],
      ['pgrep -u u', 'allow'],
      ['killall -9 node', 'allow'],
      ['systemctl stop sshd', 'deny', 'systemctl stop sshd'],
      ['sudo systemctl disable --now ufw.service', 'deny', 'systemctl disable ufw.service'],
      ['service firewalld stop', 'deny', 'service firewalld stop'],
      ['systemctl status sshd', 'allow'],
      ['systemctl restart nginx', 'allow'],
    ]);
  });
});

describe('git history family', () => {
  table([
    ['git branch -D main', 'deny', 'families.gitHistory: branch -D main'],
    ['git branch -D feature/x', 'allow'],
    ['git branch -d master', 'deny', 'branch -d master'],
    ['git branch -d feature/merged', 'allow'],
    ['git branch --delete --force main', 'deny', 'branch -D main'],
    ['git branch --del refs/heads/main', 'deny', 'branch -d main'],
    ['git branch -d heads/main', 'deny', 'branch -d main'],
    ['git branch -dr origin/main', 'allow'],
    ['git branch -f main HEAD~3', 'deny', 'branch -f main'],
    ['git branch -f feature/x HEAD', 'allow'],
    ['git branch --force main origin/old', 'deny', 'branch -f main'],
    ['git branch main', 'allow'],
    ['git branch -M feature/x main', 'deny', 'branch -M over main'],
    ['git branch -m main trunk', 'deny', 'branch -m main'],
    ['git branch -m feature/old feature/new', 'allow'],
    ['git branch -c main backup/main', 'allow'],
    ['git branch -C feature/x master', 'deny', 'branch -C over master'],
    ['git update-ref -d refs/heads/main', 'deny', 'update-ref -d refs/heads/main'],
    ['git update-ref -d refs/heads/feature/x', 'allow'],
    ['git update-ref refs/heads/main HEAD~5', 'deny', 'update-ref refs/heads/main'],
    ['git update-ref refs/heads/feature/x HEAD', 'allow'],
    ['git checkout -B main origin/main', 'deny', 'checkout -B main'],
    ['git checkout -B feature/x', 'allow'],
    ['git switch -C master', 'deny', 'switch -C master'],
    ['git switch -c feature/y', 'allow'],
    ['git push --prune origin "refs/heads/*:refs/heads/*"', 'deny'],
    ['git push --prune origin feature/x #!axme pr=none repo=acme/app', 'deny', 'push --prune'],
    ['git push origin feature/x #!axme pr=none repo=acme/app', 'allow'],
    ['git filter-branch --tree-filter "rm -f s.txt" HEAD', 'deny', 'filter-branch'],
    ['git filter-repo --path secrets/ --invert-paths', 'deny', 'filter-repo'],
    ['git filter-repo --analyze', 'allow'],
    ['git reflog expire --expire=now --all', 'deny', 'reflog expire'],
    ['git reflog delete HEAD@{1}', 'deny', 'reflog delete'],
    ['git reflog -n 20', 'allow'],
    ['git gc --prune=now', 'deny', 'gc --prune=now'],
    ['git gc --prune=all --aggressive', 'deny', 'gc --prune=all'],
    ['git gc --pru=now', 'deny', 'gc --prune=now'],
    ['git -c gc.pruneExpire=now gc', 'deny', 'gc with gc.pruneexpire=now'],
    ['git gc', 'allow'],
    ['git gc --prune=2.weeks.ago', 'allow'],
    ['git gc --aggressive', 'allow'],
    ['git prune', 'deny', 'families.gitHistory: prune'],
    ['git prune --expire=now', 'deny', 'prune --expire=now'],
    ['git prune --expire now', 'deny', 'prune --expire=now'],
    ['git prune --expire=all', 'deny', 'prune --expire=all'],
    ['git prune --expire=2.weeks.ago', 'allow'],
    ['git prune -n', 'allow'],
    ['git prune --dry-run --expire=now', 'allow'],
    ['git worktree remove --force ../wt', 'deny', 'worktree remove --force'],
    ['git worktree remove -f ../wt', 'deny', 'worktree remove --force'],
    ['git worktree remove ../wt -f', 'deny', 'worktree remove --force'],
    ['git worktree remove ../wt', 'allow'],
    ['git worktree prune', 'allow'],
    ['git worktree list', 'allow'],
    ['git replace abc123 def456', 'deny', 'families.gitHistory: replace'],
    ['git replace --graft HEAD~1', 'deny', 'replace'],
    ['git replace -d abc123', 'deny', 'replace'],
    ['git replace -l', 'allow'],
    ['git replace', 'allow'],
    ['git stash clear', 'deny', 'stash clear'],
    ['git stash drop', 'allow'],
    ['git stash drop stash@{1}', 'allow'],
    ['echo main | xargs git branch -D', 'deny', 'branch -D main'],
    ['sh -c "git branch -D main"', 'deny', 'branch -D main'],
    ['git -C /home/u/proj branch -D main', 'deny', 'branch -D main'],
  ]);

  describe('protected branches are the policy’s, globs included', () => {
    table(
      [
        ['git branch -D release/1.2', 'deny', 'branch -D release/1.2'],
        ['git branch -D main', 'allow'],
        ['git branch -D feature/x', 'allow'],
      ],
      policyWith((r) => {
        r.git.protectedBranches = ['release/*'];
      }),
    );
  });

  describe('what checkPush lets through when force and direct pushes to main are allowed', () => {
    const loose = policyWith((r) => {
      r.git.allowForcePush = true;
      r.git.allowDirectPushToMain = true;
      r.git.requirePrForMain = false;
    });
    const M = ' #!axme pr=none repo=acme/app';
    table(
      [
        [`git push --force origin main${M}`, 'deny', 'push --force main'],
        [`git push origin +HEAD:main${M}`, 'deny', 'push --force main'],
        [`git push --force origin feature/x${M}`, 'allow'],
        [`git push origin main${M}`, 'allow'],
        [`git push --mirror origin${M}`, 'deny', 'push --mirror'],
        [`git push --all --force origin${M}`, 'deny', 'push --all --force'],
        [`git push --all origin${M}`, 'allow'],
        [`git push origin :main${M}`, 'deny', 'git.protectedBranches'],
      ],
      loose,
    );
  });
});

describe('the policy switches the families', () => {
  const M = ' #!axme pr=none repo=acme/app';
  test('families.system: off allows, ask asks', async () => {
    assert.equal((await evaluateCommand('echo x >> ~/.bashrc', families('off', 'deny'), ctx())).decision, 'allow');
    const v = await evaluateCommand('echo x >> ~/.bashrc', families('ask', 'deny'), ctx());
    assert.equal(v.decision, 'ask');
    assert.match(v.rule ?? '', /^families\.system: redirect into ~\/\.bashrc$/);
    // a rule outside the family still decides
    assert.equal((await evaluateCommand('rm -rf /etc', families('off', 'deny'), ctx())).decision, 'deny');
  });
  test('families.gitHistory: ask asks, off allows', async () => {
    const v = await evaluateCommand('git branch -D main', families('deny', 'ask'), ctx());
    assert.equal(v.decision, 'ask');
    assert.equal(v.rule, 'families.gitHistory: branch -D main');
    assert.equal((await evaluateCommand('git stash clear', families('deny', 'off'), ctx())).decision, 'allow');
    assert.equal((await evaluateCommand('git stash clear', defaultPolicy(), ctx())).decision, 'deny');
    // checkPush's own rules are not the family's
    assert.equal((await evaluateCommand(`git push origin :main${M}`, families('deny', 'off'), ctx())).decision, 'deny');
  });
  test('bash.allowedPrefixes exempts a command from the families', async () => {
    const p = policyWith((r) => {
      r.bash.allowedPrefixes = ['git stash clear', 'crontab -r'];
    });
    assert.equal((await evaluateCommand('git stash clear', p, ctx())).decision, 'allow');
    assert.equal((await evaluateCommand('crontab -r', p, ctx())).decision, 'allow');
  });
});

// a subcommand named like a property of a plain object once threw in the long options' lookup (the hook then denied everything it was asked)
describe("git's long options are resolved for the subcommands the guard knows, and only those", () => {
  for (const [command, expected] of [
    ['git toString --b x', 'allow'],
    ['git constructor --force', 'allow'],
    ['git __proto__ --patc', 'allow'],
    ['git push --force-w origin feature', 'deny'],
  ] as const)
    test(`${command}: ${expected}`, async () => {
      const v = await evaluateCommand(`${command} #!axme pr=none repo=acme/app`, defaultPolicy(), safetyContext());
      assert.equal(v.decision, expected, v.reason);
    });
});
