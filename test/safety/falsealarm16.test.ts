/**
 * False alarms an eighteenth gathering of everyday command lines found (everyday-unseen16.txt: what
 * twenty-two public repositories of data pipelines, ML training, embedded Rust, Haskell, OCaml,
 * Elixir, .NET, Terraform, Ansible, operators, static sites, Godot, LaTeX, packaging, Arch, Nix,
 * pnpm, Android, Flyway and Scorecard run in their scripts, workflows, Makefiles and docs), each
 * with the dangerous neighbours the same rule must still deny.
 */
import { testHoles } from './context.ts';

testHoles({
  // paths.ts matchPath: `/$X/a` is `$X/a` (an unknown folder may start at the root already), so its
  // unknown folders stand for some folders, not for a protected file with `a` inside it (`/etc/passwd/a`)
  'a path from the root through folders only the shell knows': [
    ['meltano config set meltano state_backend.uri "file:///`pwd`/.meltano/state"', 'cat "/$X/.ssh/id_rsa"'],
    ['cat "/$(pwd)/build/out.log"', 'cat "/$(pwd)/.env"'],
    ['cp -r "/$BUILD_ROOT/dist" out/', 'cp "/$X/.ssh/id_ed25519" out/'],
    ['du -sh /${CACHE_DIR}/pip', 'cat /${X}/.kube/config'],
    ['ls -la "//$WORKSPACE/target/debug"', 'cat "//$X/.docker/config.json"'],
    ['echo ok > "/$OUT_DIR/status.txt"', 'echo hi >> /$X/.bashrc'],
    // removal.ts rootedVariable: `rm -rf "/$X/"*` is `rm -rf "$X"/*`, all of / when X is empty
    ['rm -rf /$TMPDIR/build', 'rm -rf "/$X/"*'],
    ['rm -rf "/${OUT:?}/"*', 'rm -rf /$X'],
  ],
});
