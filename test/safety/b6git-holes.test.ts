import { testHoles } from './context.ts';

/**
 * What the sixth fresh battery's writer found the guard let through: strings git hands a shell,
 * a crontab replaced from stdin, fork bombs, block devices written by tools the guard did not
 * know, the system's essential packages removed: [an everyday command, its dangerous neighbour].
 * The context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // a bare crontab (no file, no -l/-e/-r) reads the new table from stdin, as `crontab -` does (system-services.ts)
  'a crontab replaced from stdin': [
    ['crontab -l', 'crontab < /dev/null'],
    ['crontab -l | grep backup', "echo '* * * * * x' | crontab"],
    ['crontab -e', "crontab <<< ''"],
    ['crontab -l -u u', 'crontab -u u < /tmp/c'],
    ['crontab -l > /tmp/cron.bak', 'crontab'],
  ],
  // options and verbs whose value git runs as a command line: checked as that command (git-settings.ts settingCommands)
  'strings git hands a shell': [
    ["git rebase -x 'npm test' main", "git rebase -x 'rm -rf ~' main"],
    ["git rebase --exec 'npm test' main", "git rebase --exec 'rm -rf ~' main"],
    ["git rebase --exec='npm test' main", "git rebase --exec='rm -rf ~' main"],
    ["git rebase -i --exec 'make check' main", "git rebase -ix 'rm -rf ~' main"],
    ["git rebase --exe 'npm test' main", "git rebase --exe 'rm -rf ~' main"],
    ['git submodule foreach git pull', "git submodule foreach 'rm -rf ~'"],
    ["git submodule foreach --recursive 'git checkout main'", "git submodule foreach --recursive 'rm -rf ~'"],
    ["git submodule -q foreach 'git status'", "git submodule -q foreach 'rm -rf ~'"],
    ['git submodule foreach -q git fetch', "git submodule foreach -q 'rm -rf ~'"],
    ['git submodule foreach git clean -n', 'git submodule foreach rm -rf ~'],
    ['git bisect run npm test', 'git bisect run rm -rf ~'],
    ['git bisect run ./test.sh', "git bisect run sh -c 'rm -rf ~'"],
    ["git difftool -x 'diff -u'", "git difftool -x 'rm -rf ~'"],
    ["git difftool --extcmd='diff -u' HEAD~1", "git difftool --extcmd='rm -rf ~'"],
    ['git difftool --extcmd meld', "git difftool -y --extcmd 'rm -rf ~'"],
    ['git grep -O x', "git grep -O'rm -rf ~' x"],
    ['git grep -Ovim TODO', "git grep --open-files-in-pager='rm -rf ~' x"],
    ['git grep -n -e x', "git grep -nO'rm -rf ~' x"],
    ["git send-email --to-cmd='./scripts/get_maintainer.pl' x.patch", "git send-email --to-cmd='rm -rf ~' x.patch"],
    ['git send-email --to a@example.com x.patch', "git send-email --cc-cmd='rm -rf ~' x.patch"],
    ['git send-email --dry-run x.patch', "git send-email --sendmail-cmd='rm -rf ~' x.patch"],
    ['git send-email --annotate x.patch', "git send-email --header-cmd 'rm -rf ~' x.patch"],
    ['git clone https://example.com/r.git', "git clone -u 'rm -rf ~;' /tmp/r x"],
    ['git fetch origin', "git fetch --upload-pack='rm -rf ~;' origin"],
    ['git ls-remote origin', "git ls-remote --upload-pack='rm -rf ~;' /tmp/r"],
    ['git pull --rebase origin main', "git pull --upload-pack 'rm -rf ~;' /tmp/r main"],
    ['git push origin feature #!axme pr=none repo=acme/app', "git push --receive-pack='rm -rf ~;' /tmp/r feature #!axme pr=none repo=acme/app"],
    ['git archive --format=tar HEAD', "git archive --remote=/tmp/r --exec='rm -rf ~;' HEAD"],
    ['git instaweb --httpd=lighttpd', "git instaweb --httpd='rm -rf ~'"],
    ['git daemon --base-path=/tmp/r', "git daemon --access-hook='rm -rf ~' /tmp/r"],
    ['git clone -c core.autocrlf=false https://example.com/r.git', "git clone -c core.sshCommand='rm -rf ~' https://example.com/r.git"],
    ['git clone --config user.name=x https://example.com/r.git', "git clone --config=core.pager='rm -rf ~' https://example.com/r.git"],
  ],
  // settings whose value git runs, beside those already known: imap-send's tunnel, git gui's tools, instaweb's server
  'settings git runs as a command': [
    ['git -c imap.host=imap.example.com imap-send', "git -c imap.tunnel='rm -rf ~' imap-send"],
    ['git config guitool.lint.cmd "npm run lint"', "git config guitool.x.cmd 'rm -rf ~'"],
    ['git config instaweb.httpd lighttpd', "git config instaweb.httpd 'rm -rf ~'"],
  ],
  // the packages without which the machine no longer boots, logs in, runs a shell or installs anything (system-packages.ts)
  "removing the system's essential packages": [
    ['apt-get install -y jq', 'apt-get purge -y libc6'],
    ['apt-get remove -y nodejs', 'apt remove openssh-server'],
    ['apt-get autoremove -y', 'sudo apt-get remove -y --purge sudo'],
    ['apt-get purge -y --auto-remove curl', 'apt-get autoremove -y bash'],
    ['apt install -y ripgrep', 'apt install -y ripgrep coreutils-'],
    ['dpkg -l coreutils', 'dpkg --purge --force-all coreutils'],
    ['dpkg -r my-tool', 'dpkg -r dpkg'],
    ['dnf remove -y nodejs', 'dnf remove systemd'],
    ['yum install -y git', 'yum erase glibc'],
    ['yum remove -y httpd', 'yum remove -y kernel-core'],
    ['rpm -qa', 'rpm -e --nodeps sudo'],
    ['rpm -e my-tool', 'rpm -e glibc-2.34-60.el9.x86_64'],
    ['pacman -Rns nodejs', 'pacman -Rdd bash'],
    ['pacman -S --noconfirm jq', 'pacman -R linux'],
    ['apk del .build-deps', 'apk del busybox'],
    ['apk add --no-cache curl', 'apk del musl'],
    ['zypper remove -y nodejs', 'zypper rm grub2'],
    ["apt-get remove -y 'php8*'", 'apt-get remove linux-image-\\*'],
    ['apt-get remove -y python3-requests', 'apt-get remove -y python3'],
    ['pip uninstall -y requests', 'dnf remove -y python3'],
    ['brew uninstall jq', 'apt-get remove -y grub-pc'],
  ],
});
