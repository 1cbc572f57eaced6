/**
 * What an environment runner, a version manager, a dev shell or a launcher starts gets every rule:
 * each row pairs an everyday command through one that must pass with a dangerous neighbour the
 * removal rule must catch as it catches the bare command (`rm -rf ~` stands for any harm). The
 * context is context.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import { testHoles } from './context.ts';

testHoles({
  // `conda run -n env cmd`, `pixi run`, `rye run`, `devbox run`, `hatch env run --`, `tox exec --`: the command run in the environment
  'the command an environment runner starts gets the removal rule': [
    ['conda run -n env pytest', 'conda run -n env rm -rf ~'],
    ['conda run --no-capture-output -n env python app.py', 'conda run --cwd /tmp -p ./env rm -rf ~'],
    ['mamba run -n env pytest', 'mamba run -n env rm -rf ~'],
    ['micromamba run -n env pytest', 'micromamba run -n env rm -rf ~'],
    ['pixi run test', 'pixi run rm -rf ~'],
    ['pixi run -e dev pytest', 'pixi run -e dev rm -rf ~'],
    ['pixi exec ruff check .', 'pixi exec -s coreutils rm -rf ~'],
    ['rye run pytest', 'rye run rm -rf ~'],
    ['devbox run build', 'devbox run rm -rf ~'],
    ['devbox run -e A=1 test', 'devbox run -c ./dev -- rm -rf ~'],
    ['hatch env run -- pytest', 'hatch env run -- rm -rf ~'],
    ['hatch env run -e test -- pytest', 'hatch env run -e test -- rm -rf ~'],
    // hatch's `-e ENV` before `run`, and its `ENV:command`
    ['hatch -e test run pytest', 'hatch -e test run rm -rf ~'],
    ['hatch run test:cov', 'hatch run test:rm -rf ~'],
    ['pixi r test', 'pixi r rm -rf ~'],
    ['tox exec -- pytest', 'tox exec -e py312 -- rm -rf ~'],
    ['tox -e py312', 'tox e -- rm -rf ~'],
    ['guix shell jq -- jq . a.json', 'guix shell -- rm -rf ~'],
    ['guix shell coreutils -- ls', 'guix shell -C coreutils -- rm -rf ~'],
    // `nix run pkgs#prog -- args`: the package's program with the args; a flake's default app names none
    ['nix run nixpkgs#hello', "nix run nixpkgs#bash -- -c 'rm -rf ~'"],
    ['nix run .', 'nix run nixpkgs#coreutils -- rm -rf ~'],
    ['nix develop', "nix --extra-experimental-features flakes run nixpkgs#bash -- -c 'rm -rf ~'"],
    ['flox activate -- npm test', 'flox activate -- rm -rf ~'],
    ['hermit exec jq . a.json', 'hermit exec rm -rf ~'],
  ],
  // `volta run`, `nvm exec [version]`, `fnm exec --using`, `mise x --`, `rtx exec --`: the command run under that node or tool
  'the command a version manager starts gets the removal rule': [
    ['volta run node -v', 'volta run rm -rf ~'],
    ['volta run --node 20 npm test', 'volta run --node 20 rm -rf ~'],
    ['nvm exec 20 npm test', 'nvm exec 20 rm -rf ~'],
    ['nvm use 20', 'nvm exec --lts rm -rf ~'],
    // without a version nvm reads .nvmrc; a word that may be an alias is read both ways
    ['nvm exec npm test', 'nvm exec myalias rm -rf ~'],
    ['nvm exec node app.js', 'nvm exec rm -rf ~'],
    ['nvm exec --silent 20 node -v', 'nvm exec -- rm -rf ~'],
    // `nvm run [version] args` is node with the args
    ['nvm run 20 app.js', `nvm run 20 -e 'require("fs").rmSync(require("os").homedir(),{recursive:true})'`],
    ['fnm exec --using=20 npm test', 'fnm exec --using=20 rm -rf ~'],
    ['fnm use 20', 'fnm exec --using 20 rm -rf ~'],
    ['rtx exec -- npm test', 'rtx exec -- rm -rf ~'],
    ['mise exec -- npm test', "mise exec node@20 -c 'rm -rf ~'"],
  ],
  // `corepack pnpm …` is pnpm; `deno run npm:<pkg>` runs that package's program
  'the package manager corepack starts and the npm package deno runs get the removal rule': [
    ['corepack enable', 'corepack pnpm dlx rimraf ~'],
    ['corepack pnpm install', 'corepack yarn exec rm -rf ~'],
    ['corepack pnpm@9.1.0 install', 'corepack npx rimraf ~'],
    ['corepack yarn@4 install', 'corepack yarn@4 dlx rimraf ~'],
    ['deno run -A main.ts', 'deno run npm:rimraf ~'],
    ['deno run npm:cowsay hi', 'deno run -A npm:rimraf ~'],
    ['deno run --allow-read npm:cowsay hi', 'deno run -A npm:rimraf@5 ~'],
    // `npm:<package>[@version]/<bin>`: the bin named
    ['deno run npm:@angular/cli@17/ng version', 'deno run npm:rimraf@5/rimraf ~'],
  ],
  // session and detach tools, watchers and supervisors: the command they run, now or on each change
  'the command a launcher starts gets the removal rule': [
    ['screen -ls', 'screen -X exec rm -rf ~'],
    ['screen -r dev', 'screen -S s -X exec rm -rf ~'],
    ['screen -X exec ls', 'screen -X exec .!. rm -rf ~'],
    // `-X eval 'cmd' …`: each argument one of screen's commands
    ["screen -X eval 'select 1'", "screen -X eval 'exec rm -rf ~'"],
    ["screen -S s -X eval 'stuff hi'", `screen -S s -X eval 'stuff "rm -rf ~\\n"'`],
    ['sudo -v', "sudo -s 'rm -rf ~'"],
    ['sudo -i', "sudo -i 'rm -rf ~'"],
    ["sudo -u www -s 'ls -la'", "sudo -iu root 'rm -rf ~'"],
    ['dtach -a /tmp/s', 'dtach -n /tmp/s rm -rf ~'],
    ['dtach -A /tmp/s bash', 'dtach -c /tmp/s -z rm -rf ~'],
    ['abduco', 'abduco -n s rm -rf ~'],
    ['abduco -a s', 'abduco -c s rm -rf ~'],
    ['byobu ls', "byobu new-session 'rm -rf ~'"],
    ['byobu-screen -ls', "byobu-screen -X stuff 'rm -rf ~\\n'"],
    ['zellij run -- npm test', 'zellij run -- rm -rf ~'],
    ['zellij attach dev', 'zellij run -f -- rm -rf ~'],
    // zellij's global `-s session` before the verb
    ['zellij -s dev run -- npm test', 'zellij -s dev run -- rm -rf ~'],
    // `zellij action new-pane -- cmd` runs it; `write-chars` types into the focused pane
    ['zellij action new-pane -- npm test', 'zellij action new-pane -- rm -rf ~'],
    ["zellij action write-chars 'npm test'", "zellij action write-chars 'rm -rf ~'"],
    ['chronic npm test', 'chronic rm -rf ~'],
    ['ifne npm test', 'ifne rm -rf ~'],
    ['lckdo /tmp/l npm test', 'lckdo /tmp/l rm -rf ~'],
    ['ls src/*.ts | entr -s "npm test"', "ls src/*.ts | entr -s 'rm -rf ~'"],
    ['ls src/*.ts | entr npm test', 'ls src/*.ts | entr -c rm -rf ~'],
    ['ls src/*.ts | entr -cs "npm test"', "ls src/*.ts | entr -cs 'rm -rf ~'"],
    ['watchexec -e ts -- npm test', 'watchexec -- rm -rf ~'],
    ["watchexec -w src 'npm test'", "watchexec -w src 'rm -rf ~'"],
    ['nodemon src/index.ts', "nodemon --exec 'rm -rf ~'"],
    ["nodemon --exec 'npm test'", "nodemon -x 'rm -rf ~'"],
    // nodemon runs the exec line with the script and its arguments after it
    ["nodemon --exec 'ts-node' src/index.ts", "nodemon --exec 'rm -rf' ~"],
    ["expect -c 'spawn ssh h uptime'", "expect -c 'spawn rm -rf ~'"],
    // Tcl's braces quote as single quotes; `;` starts a statement
    ["expect -c 'spawn -noecho ssh h; expect eof'", "expect -c 'spawn sh -c {rm -rf ~}'"],
    ["expect -c 'set x 1; exec ls'", "expect -c 'set x 1; exec rm -rf ~'"],
    ['toybox ls', 'toybox rm -rf ~'],
    ['busybox ls', 'coreutils rm -rf ~'],
  ],
});
