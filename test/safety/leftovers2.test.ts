import { testAsks, testHoles } from './context.ts';

/**
 * This session's batteries' leftovers, each closed where its kind is decided: [an everyday command
 * that must pass, its dangerous neighbour]. The context is context.ts's: the project /home/u/proj
 * on main, home /home/u.
 */

testHoles({
  // subshell-folders.ts: a `cd` inside `( )` moves no command after the subshell (one in `$( )` still does: the DIR idiom)
  'a redirection of a subshell, opened where the line is, not where a cd inside it went': [
    ['(cd "$D" && ls) > "$D/$N.zip"', '(cd "$D" && ls) > /etc/passwd'],
    ['(cd ~/.ssh && ls) > notes.txt', '(cd ~/.ssh && ls > notes.txt)'],
    ['(cd ~/.ssh; ls) > notes.txt', '(cd ~/.ssh; ls; cat id_rsa) > notes.txt'],
    ['(cd /tmp && ls) && rm -rf build', '(cd /tmp && ls) && rm -rf *'],
    ['DIR="$(cd "$(dirname "$0")" && pwd)"; rm -rf "$DIR/build"', 'DIR="$(cd ~ && pwd)"; rm -rf "$DIR/.ssh"'],
  ],
  // paths.ts matchPath: after a cd only the shell knows, a path whose folders are all unknown is matched by its name
  'a path of unknown folders after a cd only the shell knows': [
    ['cd "$D" && ls > "$D/$N.zip"', 'cd "$D" && cat "$D/$N.pem"'],
    ['cd "$D" && cat "$X/notes.txt"', 'cd "$D" && cat "$X/.aws/credentials"'],
    ['cd "$D" && cat "$X/$Y/report.csv"', 'cd "$D" && cat "$X/$Y/id_rsa"'],
    ['cd "$D" && cat "$X/notes.txt"', 'cd "$D" && cat etc/../.ssh/id_rsa'],
  ],
  // stored-file-settings.ts: a package manager's setting that stores a CA bundle's path reads nothing, as git's http.sslCAInfo
  'a config setter storing a certificate path': [
    ['poetry config certificates.x.cert /path/ca.pem', 'poetry config certificates.x.cert /x.pem; cat /x.pem'],
    ['npm config set cafile /path/ca.pem', 'npm config set userconfig ~/.ssh/id_rsa'],
    ['npm config set cafile=/path/ca.pem', 'npm config set init-module /path/ca.pem'],
    ['pip config set global.cert /path/ca.pem', 'pip install --cert /path/ca.pem -r ~/.ssh/id_rsa'],
    ['yarn config set caFilePath /path/ca.pem', 'yarn config set cafile /path/ca.pem && cat /path/ca.pem'],
    ['conda config --set ssl_verify /path/ca.pem', 'conda config --file ~/.aws/credentials --show'],
    ['bundle config set ssl_ca_cert /path/ca.pem', 'bundle config set ssl_ca_cert ~/.ssh/id_rsa.pem && cat ~/.ssh/id_rsa.pem'],
  ],
  // printed-names.ts listingAsFind: du lists what find lists (-a every file, -s its operands, -d N as deep)
  "du's listing fed to a reader": [
    ['du -a src | xargs wc -l', 'du -a ~/.ssh | xargs cat'],
    ['du -a src | cut -f2 | xargs wc -l', 'du -a ~/.ssh | cut -f2 | xargs cat'],
    ['du -ah --max-depth=1 . | sort -h', 'du -a -d 1 ~/.aws | cut -f2 | xargs cat'],
  ],
  // command-paths.ts: `git -C DIR` outside the project reads a tree's paths (`HEAD:x`) in DIR's repository
  "a tree's path under git -C outside the project": [
    ['git -C ~ show HEAD:notes.txt', 'git -C ~ show HEAD:.aws/credentials'],
    ['git -C ~/dotfiles show HEAD:.bashrc', 'git -C ~ show HEAD:.kube/config'],
    ['git -C sub show HEAD:README.md', 'git -C ~ cat-file -p HEAD:.aws/credentials'],
  ],
  // known-folders.ts xdgDefaultFolder: an XDG base folder variable names its default folder at least
  'a path below an XDG base folder variable': [
    ['cat $XDG_CONFIG_HOME/nvim/init.lua', 'cat $XDG_CONFIG_HOME/gh/hosts.yml'],
    ['cat "${XDG_CONFIG_HOME}/gh/config.yml"', 'cat "${XDG_CONFIG_HOME}/gh/hosts.yml"'],
    ['ls $XDG_CACHE_HOME/pip', 'cat $XDG_DATA_HOME/keyrings/login.keyring'],
  ],
  // fed-input.ts PipeReading nameSource: a stage that selects fields of its lines keeps the names a listing printed
  'names a listing printed, through a field selector, to xargs': [
    ['du -a src | sort -n | cut -f2 | head | xargs wc -l', 'du .env | cut -f2 | xargs cat'],
    ["ls -l | awk '{print $NF}' | xargs wc -l", "ls -l .env | awk '{print $NF}' | xargs cat"],
    ['du -sh * | sort -h | cut -f2 | xargs ls -d', "ls -l .env.production | awk '{print $9}' | xargs cat"],
    ["git status --short | awk '{print $2}' | xargs git add", 'du -a .env.local | sort | cut -f2 | xargs cat'],
  ],
});

testAsks({
  // families.ts infra `unknown.targets`: a Linode is a cloud's machine, as a droplet is
  "an unknown program's delete toward a Linode": [
    ['linode-cli linodes list', 'linode-cli linodes delete 123'],
    ['linode-cli linodes view 123', 'linode-cli linodes rm 123'],
  ],
});
