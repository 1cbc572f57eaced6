import { type Hit, hasOption, operandAt, operands, type ToolCheck } from './args.ts';

/**
 * The publish family's build tools and language registries past the big ones: the goals and tasks
 * of Pants, sbt and Mill that publish, Hex (`mix hex.publish`), Hackage (`cabal upload --publish`,
 * `stack upload`), LuaRocks, CocoaPods (and `pod trunk delete`), CPAN, opam (`dune-release`), JSR (`deno publish`) and
 * PyPI through maturin and rye. Their local neighbours stay free: `sbt publishLocal`, `mill
 * __.publishLocal`, `cabal upload` of a candidate, `stack upload --candidate`.
 */

function hit(rule: string, where: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` uploads ${where} for good: a published version can be withdrawn at best, never replaced, and others may already have it`,
  };
}

/** Pants goals that publish: `publish` (dists, images, charts to their registries), `experimental-deploy` (Helm deployments). */
const PANTS_PUBLISH = new Set(['publish', 'experimental-deploy']);

/** `pants [goal…] [address…]`: the goals are the leading plain words (`pants lint fmt ::`, `pants package publish src:dist`). */
const pants: ToolCheck = (args) => {
  for (const word of operands(args)) {
    if (!/^[a-z][a-z0-9-]*$/.test(word)) break;
    if (PANTS_PUBLISH.has(word)) return hit(`pants ${word}`, "the project's packages, images or charts to their registries");
  }
  return null;
};

/**
 * sbt tasks that upload to a remote repository (sbt-pgp, sbt-sonatype, sbt-release-early, and
 * sbt-release's `release`: publish, tag and push); `publishLocal`, `publishM2` stay local.
 */
const SBT_PUBLISH = new Set(['publish', 'publishSigned', 'sonatypeRelease', 'sonatypeBundleRelease', 'sonatypeCentralRelease', 'releaseEarly', 'release']);

/**
 * `sbt publish`, `sbt +publishSigned`, `sbt core/publish`, `sbt ";clean;publishSigned"`, `sbt
 * "project core" publish`, `sbt "release with-defaults"`: each command's first word is its task,
 * the words after it its arguments (`sbt "testOnly acme.ReleaseSpec"`).
 */
const sbt: ToolCheck = (args) => {
  for (const a of operands(args)) {
    for (const command of a.split(';')) {
      const first = command.trim().split(/\s+/)[0]!;
      const task = first.replace(/^\++/, '').slice(first.lastIndexOf('/') + 1);
      if (SBT_PUBLISH.has(task)) return hit(`sbt ${task}`, "the build's artifacts to a remote repository (Maven Central, the project's own)");
    }
  }
  return null;
};

/**
 * `mix hex.publish`, also as a task of `mix do` (`mix do compile, hex.publish`; `mix do compile +
 * hex.publish`), unless `--dry-run`; and Hex's changes to a package past a version, as `npm
 * deprecate` and `npm owner add` are: `hex.retire` (not `--unretire`), `hex.owner add|transfer`.
 */
const mix: ToolCheck = (args) => {
  const i = operandAt(args);
  const tasks = args[i] === 'do' ? mixDoTasks(args.slice(i + 1)) : [args.slice(i)];
  if (tasks.some((t) => t[0] === 'hex.publish' && !t.includes('--dry-run'))) return hit('mix hex.publish', 'a package version (or its docs) to Hex');
  for (const t of tasks) {
    if (t[0] === 'hex.retire' && !t.includes('--unretire'))
      return { rule: 'mix hex.retire', reason: '`mix hex.retire` marks a published version retired: everyone who installs it is told to move off it' };
    if (t[0] === 'hex.owner' && (t[1] === 'add' || t[1] === 'transfer'))
      return { rule: `mix hex.owner ${t[1]}`, reason: `\`mix hex.owner ${t[1]}\` gives someone the right to publish the package's next versions` };
  }
  return null;
};

/** The tasks of `mix do`, each with its arguments: separated by `+` words or by commas. */
function mixDoTasks(args: readonly string[]): string[][] {
  const tasks: string[][] = [[]];
  for (const a of args) {
    if (a === '+') {
      tasks.push([]);
      continue;
    }
    const pieces = a.split(',');
    pieces.forEach((p, k) => {
      if (k > 0) tasks.push([]);
      if (p) tasks.at(-1)!.push(p);
    });
  }
  return tasks;
}

/** Mill tasks that upload: `__.publish`, `app.publish`, `mill.scalalib.PublishModule/publishAll`; not `publishLocal`, `publishM2Local`. */
const MILL_PUBLISH = new Set(['publish', 'publishAll', 'publishSonatypeCentral']);

const mill: ToolCheck = (args) => {
  for (const a of operands(args)) {
    const task = a.slice(Math.max(a.lastIndexOf('.'), a.lastIndexOf('/')) + 1);
    if (MILL_PUBLISH.has(task)) return hit(`mill ${task}`, "the build's artifacts to a remote repository (Maven Central)");
  }
  return null;
};

/** `<program> <sub>`: the first operand. */
const sub = (args: string[]) => args[operandAt(args)];

/** dune-release's steps that publish: all of them in turn when none is named, `publish`, `opam submit`, `undraft`. */
const duneRelease: ToolCheck = (args) => {
  const i = operandAt(args);
  const step = args[i];
  if (step === undefined) return hit('dune-release', 'a tagged release to GitHub and its package to opam-repository (tag, distrib, publish, opam submit)');
  if (step === 'publish' || step === 'undraft') return hit(`dune-release ${step}`, 'a release and its archive to GitHub');
  if (step === 'opam' && args[operandAt(args, undefined, i + 1)] === 'submit') return hit('dune-release opam submit', 'the package to opam-repository');
  return null;
};

export const LANG_TOOLS: Record<string, ToolCheck> = {
  pants,
  sbt,
  mill,
  mix,
  // without `--publish` cabal uploads a candidate: not what `cabal install` resolves, and replaceable
  cabal: (args) =>
    sub(args) === 'upload' && hasOption(args, '--publish') ? hit('cabal upload --publish', 'a package version (or its docs) to Hackage') : null,
  stack: (args) => (sub(args) === 'upload' && !hasOption(args, '--candidate') ? hit('stack upload', 'a package version to Hackage') : null),
  luarocks: (args) => (sub(args) === 'upload' ? hit('luarocks upload', 'a rock version to luarocks.org') : null),
  pod: (args) => {
    const i = operandAt(args);
    const group = args[i];
    const verb = args[operandAt(args, undefined, i + 1)];
    // `pod trunk delete`: a published version taken away from everyone who installs it (as `npm unpublish`)
    if (group === 'trunk' && verb === 'delete')
      return {
        rule: 'pod trunk delete',
        reason: '`pod trunk delete` takes a published pod version away from everyone who installs it, and its version number can never be used again',
      };
    // `pod trunk add-owner`: someone given the right to push its versions; `deprecate`: everyone who installs it told to move off it
    if (group === 'trunk' && (verb === 'add-owner' || verb === 'deprecate'))
      return {
        rule: `pod trunk ${verb}`,
        reason: `\`pod trunk ${verb}\` ${verb === 'deprecate' ? 'marks the pod deprecated for everyone who installs it' : 'gives someone the right to push versions of the pod'}`,
      };
    if ((group !== 'trunk' && group !== 'repo') || verb !== 'push') return null;
    return hit(`pod ${group} push`, group === 'trunk' ? 'a pod version to the CocoaPods trunk' : 'a pod version to a specs repository others install from');
  },
  'dune-release': duneRelease,
  'cpan-upload': () => hit('cpan-upload', 'a distribution to CPAN through PAUSE'),
  rye: (args) => (sub(args) === 'publish' ? hit('rye publish', 'distributions to PyPI') : null),
  deno: (args) => (sub(args) === 'publish' ? hit('deno publish', 'a package version to JSR') : null),
  maturin: (args) => {
    const s = sub(args);
    return s === 'upload' || s === 'publish' ? hit(`maturin ${s}`, 'distributions to PyPI') : null;
  },
};
