/**
 * False alarms a tenth gathering of everyday command lines found (everyday-unseen8.txt: what 30
 * public repositories tell contributors to run on their first day), each with the dangerous
 * neighbours the same rule must still deny — and the lines it left stopped by design, each beside
 * an everyday neighbour that passes.
 */
import { testHoles } from './context.ts';

testHoles({
  // shell-vars.ts freshScripts: the fresh path mktemp made, expanded by this shell into a script another shell or a trap runs
  'a fresh temporary folder expanded into the script a trap or a child shell runs': [
    ['tmpdir=$(mktemp -d); trap "rm -rf $tmpdir" EXIT; python3 -m venv $tmpdir', 'tmpdir=$(cat dir.txt); trap "rm -rf $tmpdir" EXIT'],
    ['tmp=$(mktemp -d) && trap "rm -rf ${tmp}" EXIT', 'tmp=$(mktemp -d) && trap "rm -rf $tmp/*" EXIT'],
    ['tmp=$(mktemp -d); bash -c "rm -rf $tmp"', 'tmp=$(mktemp -d); bash -c "rm -rf $tmp $HOME"'],
    ['tmp="$(mktemp -d)"; sh -c "rm -fr $tmp"', 'tmp=$(mktemp -d); sh -c "cd $tmp && rm -rf *"'],
    ['tmp=$(mktemp -d); bash -c "ls $tmp && rm -rf $tmp"', 'tmp=$(mktemp -d); bash -c "rm -rf $tmp/.."'],
    ['t=$(mktemp -d); u=$t; eval "rm -rf ${u}"', 't=$(mktemp -d); x=$(pwd -P)/..; eval "rm -rf $t $x"'],
    ['w=$(mktemp -d -t build.XXXX); trap "rm -rf $w" EXIT INT', 'w=$(mktemp -d); trap "rm -rf $w; rm -rf ~" EXIT'],
  ],
  // venv-folders.ts: a virtual environment's folder is made and filled with its own entries (bin/, lib/, pyvenv.cfg), no dotfile of its name written
  'a virtual environment made in a dot folder of the home folder, judged by what it writes inside': [
    ['python3 -m venv $HOME/.venv', 'python3 -m venv --clear $HOME/.venv'],
    ['python3 -m venv ~/.venv && ~/.venv/bin/pip install ruff', 'python3 -m venv ~'],
    ['uv venv ~/.venv', 'uv venv ~/.local'],
    ['virtualenv -p python3 ~/.virtualenv', 'virtualenv ~/.ssh'],
    ['conda create -y -p ~/.conda-env python=3.12', 'conda create -y -p ~/.config python=3.12'],
    ['python -m virtualenv ~/.tox-env', 'python -m venv /etc/venv'],
  ],
});

// Left stopped by design: the corpus's lines the guard stops for what they are in this context
// (they are not in everyday-unseen8.txt), each beside the everyday neighbour that passes.
testHoles({
  // a download run by PowerShell's iex, as curl | sh; a line appended to a shell's start-up file
  'a download run, a start-up file written': [
    ['powershell -c "irm https://astral.sh/ruff/install.ps1 -OutFile install.ps1"', 'powershell -c "irm https://astral.sh/ruff/install.ps1 | iex"'],
    ['powershell -c "irm https://astral.sh/ruff/install.ps1 -OutFile install.ps1"', 'powershell -c "irm https://astral.sh/ruff/0.16.4/install.ps1 | iex"'],
    ['powershell -c "irm https://astral.sh/ruff/install.ps1 -OutFile install.ps1"', 'powershell -c "irm https://astral.sh/ruff/0.5.0/install.ps1 | iex"'],
    ['irm https://ollama.com/install.ps1 -OutFile install.ps1', 'irm https://ollama.com/install.ps1 | iex'],
    ["echo 'fpath+=${ZDOTDIR:-~}/.zsh_functions' >> build/zshrc.snippet", "echo 'fpath+=${ZDOTDIR:-~}/.zsh_functions' >> ${ZDOTDIR:-~}/.zshrc"],
  ],
  // a tool's settings in ~/.config outlive the task; a variable the line does not set may be / or the home folder
  "the user's settings written, a folder only the shell knows removed": [
    ['cp .github/ty-ecosystem.toml ty.toml', 'cp .github/ty-ecosystem.toml ~/.config/ty/ty.toml'],
    ['rm -rf "${BUILD_DIR:?}"', 'rm -rf "$BUILD_DIR"'],
  ],
  // a false alarm left: the arguments after the image are the container's, its key the image's own
  // (postgres's snakeoil key), but the guard reads their paths as any path's — `docker exec db cat
  // /etc/ssl/private/server.key` prints a live server's key, and the guard cannot tell the two apart
  'a key file named in the arguments a container runs with': [
    [
      'docker run --name pg_backend_testing --rm -e POSTGRES_USER=postgres -e POSTGRES_PASSWORD=password -p 5432:5432 postgres:latest -c ssl=on -c ssl_cert_file=/etc/ssl/certs/ssl-cert-snakeoil.pem',
      'docker run --name pg_backend_testing --rm -e POSTGRES_USER=postgres -e POSTGRES_PASSWORD=password -p 5432:5432 postgres:latest -c ssl=on -c ssl_cert_file=/etc/ssl/certs/ssl-cert-snakeoil.pem -c ssl_key_file=/etc/ssl/private/ssl-cert-snakeoil.key',
    ],
  ],
});
