/**
 * False alarms a fifteenth gathering of everyday command lines found (everyday-unseen13.txt: what
 * eighteen public repositories of .NET, Java, PHP, Ruby, Elixir, Haskell, OCaml, Swift, C
 * libraries, Terraform tooling, Ansible, a documentation theme and a browser extension run in their
 * scripts, workflows, Makefiles and docs), each with the dangerous neighbours the same rule must
 * still deny.
 */
import { testHoles } from './context.ts';

testHoles({
  // paths.ts matchPath: a path in a folder only the shell knows, then known names, one of them with an expansion in it
  'a path below a folder only the shell knows, an expansion in a later name': [
    [
      'cd Opam.Runtime.$(MANIFEST_ARCH) && $(LN_S) -f ../_build/install/default/bin/Opam.Runtime.$(MANIFEST_ARCH)/libstdc++-6.dll .',
      'cd Opam.Runtime.$(MANIFEST_ARCH) && cat .ssh/id_rsa',
    ],
    ['cd "$D" && cat "_build/$X/lib.dll"', 'cd "$D" && cat ".ssh/$X"'],
    ['cd "$D" && cp "out/bin-$ARCH/tool" dist/tool', 'cd "$D" && cat "u/.ssh/id_$X"'],
    ['cd build-$V && cat ../src/$N/main.c', 'cd build-$V && cat ".aws/$X/credentials"'],
    ['cd "$D" && cat "docs/$X/index.md"', 'cd "$D" && cat "a/$X/.env.local"'],
  ],
  // families/unknown.ts: a line whose first word is an option is a fragment (an array's line), no program
  'a first word that is an option names no program': [
    ['--configuration release', 'dotnet-tool release'],
    ['--target deploy', 'x deploy'],
  ],
});
