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
