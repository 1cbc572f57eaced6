/**
 * False alarms a fourteenth gathering of everyday command lines found (everyday-unseen12.txt: what
 * seventeen public repositories of data engineering, ML tooling, mobile, game, embedded, scientific
 * Python, Rust/Go CLIs and Nix run in their scripts, workflows, Makefiles and docs), each with the
 * dangerous neighbours the same rule must still deny.
 */
import { testHoles } from './context.ts';

testHoles({
  // families/publish-registries.ts cargo: cargo-release told to neither publish, tag nor push, or one of its steps that only edits the clone
  'cargo release that neither publishes, tags nor pushes': [
    [
      'cargo release "${next_version}" --workspace --no-publish --execute --no-tag --no-confirm --no-push --exclude ci',
      'cargo release "${next_version}" --workspace --no-publish --execute --no-confirm --no-push',
    ],
    ['cargo release 1.2.0 --no-publish --no-push --no-tag -x', 'cargo release 1.2.0 --no-push --no-tag -x'],
    ['cargo release version minor --execute', 'cargo release publish --execute'],
    ['cargo release replace --execute', 'cargo release push --execute'],
    ['cargo release commit --execute --no-confirm', 'cargo release tag --execute'],
    ['cargo release version 2.0.0 -x --workspace', 'cargo release owner --execute'],
    ['cargo release --no-publish --no-push --no-tag --execute patch', 'cargo release --no-publish --no-tag --execute patch'],
  ],
});
