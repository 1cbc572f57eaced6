import { CONTAINER_GLOBAL_VALUED } from '../container-cli.ts';
import { COMPOSE_VALUED, dryRun, GRADLE_VALUED, type Hit, hasOption, operandAt, operands, optionValues, type ToolCheck } from './args.ts';
import { cargoReleaseStaysLocal } from './cargo-release.ts';
import { cargoRegistryChange, gemRegistryChange } from './publish-withdraw.ts';

/**
 * The publish family's package registries past npm — crates.io, RubyGems, PyPI, Maven, NuGet —
 * GoReleaser, winget's manifests, and the container registries (docker, podman, buildah, crane, regctl, skopeo, ko,
 * kaniko, Jib, helm charts): what uploads to them, and what deletes a version or an image from them (as
 * `npm unpublish`: gone for everyone who installs or pulls it).
 */

function hit(rule: string, where: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` uploads ${where} for good: a published version can be withdrawn at best, never replaced, and others may already have it`,
  };
}

/** `<program> <sub>`: the first operand after the options in `valued`. */
function sub(args: string[], valued?: ReadonlySet<string>): string | undefined {
  return args[operandAt(args, valued)];
}

const CARGO_VALUED = new Set(['-Z', '--config', '-C', '--color']);
const POETRY_VALUED = new Set(['-C', '--directory', '-P', '--project']);
const UV_VALUED = new Set([
  '--directory',
  '--project',
  '--cache-dir',
  '--python',
  '-p',
  '--config-file',
  '--color',
  '--with',
  '--package',
  '--extra',
  '--group',
  '--env-file',
  '--index',
  '--index-url',
  '--from',
]);
const MVN_VALUED = new Set([
  '-P',
  '-D',
  '-f',
  '--file',
  '-s',
  '--settings',
  '-gs',
  '--global-settings',
  '-pl',
  '--projects',
  '-rf',
  '--resume-from',
  '-T',
  '--threads',
  '-b',
  '--builder',
  '-l',
  '--log-file',
  '-t',
  '--toolchains',
]);
const GORELEASER_VALUED = new Set(['-f', '--config']);
const HELM_VALUED = new Set(['-n', '--namespace', '--kube-context', '--kubeconfig', '--registry-config', '--repository-config', '--repository-cache']);

/** A published version or image deleted from its registry: `nuget delete`, `crane delete`. */
function unpublishHit(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` deletes ${what} from the registry: everyone who installs or pulls it is left without it, and it does not come back` };
}

/** Images uploaded: tags move, and the images they named before are not kept. */
function imagePush(rule: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` uploads images to a registry: the tags others pull and deploy now point at them, and what they pointed at before is not kept`,
  };
}

/** `docker push`, `docker image push`, `docker manifest push`, `docker compose push`, `docker buildx build --push`... */
function containerPush(program: string): ToolCheck {
  return (args) => {
    const i = operandAt(args, CONTAINER_GLOBAL_VALUED);
    const s = args[i];
    const next = args[operandAt(args, CONTAINER_GLOBAL_VALUED, i + 1)];
    if (s === 'push') return imagePush(`${program} push`);
    if ((s === 'image' || s === 'manifest') && next === 'push') return imagePush(`${program} ${s} push`);
    if (s === 'compose' && args[operandAt(args, COMPOSE_VALUED, i + 1)] === 'push') return imagePush(`${program} compose push`);
    const build =
      s === 'build' ? 'build' : s === 'buildx' && (next === 'build' || next === 'b' || next === 'bake') ? `buildx ${next === 'b' ? 'build' : next}` : null;
    if (build && buildPushes(args)) return imagePush(`${program} ${build} --push`);
    // `docker buildx imagetools create -t REF SRC…`: a manifest list made on the registry under the tag
    if (
      s === 'buildx' &&
      next === 'imagetools' &&
      args.includes('create') &&
      (hasOption(args, '--tag', '-t') || args.some((a) => /^-t./.test(a))) &&
      !hasOption(args, '--dry-run')
    )
      return imagePush(`${program} buildx imagetools create`);
    return null;
  };
}

/** `--push`, `-o type=registry`, `--output type=image,push=true`, bake's `--set *.output=type=registry`. */
function buildPushes(args: string[]): boolean {
  if (hasOption(args, '--push')) return true;
  for (const v of optionValues(args, '-o', '--output', '--set')) if (v.includes('type=registry') || v.includes('push=true')) return true;
  return false;
}

/**
 * Maven goals that upload: the `deploy` phase, `deploy:deploy`, `deploy:deploy-file`,
 * `release:perform` (not `deploy:help`); Jib's `jib:build`, which pushes the image it builds
 * (`jib:dockerBuild` and `jib:buildTar` build it locally).
 */
const mvn: ToolCheck = (args) => {
  for (const goal of operands(args, MVN_VALUED)) {
    if (goal === 'jib:build' || /^com\.google\.cloud\.tools:jib-maven-plugin(:[^:]+)?:build$/.test(goal)) return imagePush('mvn jib:build');
    if (args.includes('-Dmaven.deploy.skip=true')) continue;
    if (goal === 'deploy' || goal === 'deploy:deploy' || goal === 'deploy:deploy-file' || goal === 'release:perform')
      return hit(`mvn ${goal}`, "the build's artifacts to a remote Maven repository");
  }
  return null;
};

/**
 * Gradle's `publish`, `publishToMavenCentral`, `publishPlugins`, `publishAllPublicationsTo…Repository`
 * (any project path); not `…ToMavenLocal`. Jib's `jib` task pushes the image it builds
 * (`jibDockerBuild`, `jibBuildTar` build it locally).
 */
const gradle: ToolCheck = (args) => {
  if (hasOption(args, '--dry-run') || args.includes('-m')) return null;
  for (const task of operands(args, GRADLE_VALUED)) {
    const name = task.slice(task.lastIndexOf(':') + 1);
    if (name === 'jib') return imagePush('gradle jib');
    if (!name.startsWith('publish') || name.endsWith('MavenLocal')) continue;
    if (name.length === 7 || (name.charCodeAt(7) >= 65 && name.charCodeAt(7) <= 90))
      return hit(`gradle ${name}`, "the build's artifacts to a remote repository (Maven Central, the Gradle Plugin Portal)");
  }
  return null;
};

/** `goreleaser release` (also bare `goreleaser`) unless it only builds a snapshot or skips publishing; `goreleaser publish`. */
const goreleaser: ToolCheck = (args) => {
  const s = sub(args, GORELEASER_VALUED);
  if (s === 'publish') return hit('goreleaser publish', 'a prepared release to GitHub and the package managers');
  if (s !== undefined && s !== 'release') return null;
  if (s === undefined && args.some((a) => a === '-h' || a === '--help' || a === '-v' || a === '--version')) return null;
  if (hasOption(args, '--snapshot') || hasOption(args, '--skip-publish')) return null;
  for (const v of optionValues(args, '--skip')) if (v.split(',').includes('publish')) return null;
  return hit('goreleaser release', 'a tagged release — archives, checksums, images, package manifests — to GitHub and the package managers');
};

/** NuGet's `push` (a version up) and `delete` (a version unlisted or deleted from the feed). */
function nugetVerb(program: string, verb: string | undefined): Hit | null {
  if (verb === 'push') return hit(`${program} push`, 'a package version to a NuGet feed');
  return verb === 'delete' ? unpublishHit(`${program} delete`, 'a package version (on nuget.org: unlists it)') : null;
}

const SKOPEO_VALUED = new Set(['--command-timeout', '--override-arch', '--override-os', '--override-variant', '--policy', '--registries.d', '--tmpdir']);
/** skopeo: `delete`; `copy` to a registry (its last operand `docker://…`), `sync --dest docker`. */
const skopeo: ToolCheck = (args) => {
  const s = sub(args, SKOPEO_VALUED);
  if (s === 'delete') return unpublishHit('skopeo delete', 'an image');
  if (s === 'copy' && operands(args, SKOPEO_VALUED).at(-1)?.startsWith('docker://')) return imagePush('skopeo copy');
  return s === 'sync' && optionValues(args, '--dest').includes('docker') ? imagePush('skopeo sync') : null;
};

const CONAN_VALUED = new Set(['-v', '--cwd']);
const REGCTL_VALUED = new Set(['--host', '--logopt', '-v', '--verbosity', '--user-agent']);

/** regctl: `tag delete`, `manifest delete`, `image delete` (alias `rm`); `image copy`/`cp`, `artifact put`, `manifest put`, `blob put` upload. */
const regctl: ToolCheck = (args) => {
  const i = operandAt(args, REGCTL_VALUED);
  const group = args[i];
  const verb = args[operandAt(args, REGCTL_VALUED, i + 1)];
  if ((group === 'tag' || group === 'manifest' || group === 'image') && (verb === 'delete' || verb === 'rm'))
    return unpublishHit(`regctl ${group} delete`, group === 'tag' ? 'a tag' : 'an image');
  if (
    (group === 'image' && (verb === 'copy' || verb === 'cp' || verb === 'import')) ||
    ((group === 'artifact' || group === 'manifest' || group === 'blob') && verb === 'put')
  )
    return imagePush(`regctl ${group} ${verb}`);
  return null;
};

const ORAS_VALUED = new Set([
  '-u',
  '--username',
  '-p',
  '--password',
  '--registry-config',
  '-a',
  '--annotation',
  '--artifact-type',
  '--config',
  '--platform',
  '--format',
]);

/** oras: `manifest delete`, `blob delete` (an artifact taken away); `push`, `attach`, `copy`/`cp`, `tag`, `manifest push` (uploaded, or a tag moved). */
const oras: ToolCheck = (args) => {
  const [group, verb] = operands(args, ORAS_VALUED);
  if ((group === 'manifest' || group === 'blob') && (verb === 'delete' || verb === 'rm')) return unpublishHit(`oras ${group} delete`, 'an artifact');
  if (group === 'push' || group === 'attach' || group === 'copy' || group === 'cp' || group === 'tag') return imagePush(`oras ${group}`);
  return group === 'manifest' && verb === 'push' ? imagePush('oras manifest push') : null;
};

const KO_VALUED = new Set([
  '--platform',
  '-t',
  '--tags',
  '--image-label',
  '--image-refs',
  '--sbom',
  '--sbom-dir',
  '-B',
  '--base-import-paths',
  '--tag-only',
  '-f',
  '--filename',
  '--selector',
  '-l',
]);
/** ko's verbs that build and push images (`publish` is `build`'s old name; `apply`, `create`, `run` deploy them as well). */
const KO_PUSHES = new Set(['build', 'publish', 'resolve', 'apply', 'create', 'run']);

/** `ko build` pushes what it builds to `$KO_DOCKER_REPO` unless `--local` (`-L`) or `--push=false`. */
const ko: ToolCheck = (args) => {
  const s = sub(args, KO_VALUED);
  if (s === undefined || !KO_PUSHES.has(s)) return null;
  if (hasOption(args, '--local') || args.includes('-L') || args.includes('--push=false')) return null;
  return imagePush(`ko ${s}`);
};

export const REGISTRY_TOOLS: Record<string, ToolCheck> = {
  cargo: (args) => {
    let i = operandAt(args, CARGO_VALUED);
    // `cargo +nightly publish`: a toolchain first
    if (args[i]?.startsWith('+')) i = operandAt(args, CARGO_VALUED, i + 1);
    if (args[i] === 'publish') return dryRun(args) || args.includes('-n') ? null : hit('cargo publish', 'a crate version to crates.io');
    const change = cargoRegistryChange(args.slice(i));
    if (change) return change;
    // cargo-release and cargo-smart-release only report what they would do unless told `--execute`
    if (args[i] === 'smart-release' && (args.includes('--execute') || args.includes('-e')))
      return hit('cargo smart-release --execute', 'the crates of the workspace to crates.io, tagged and pushed');
    return args[i] === 'release' && (args.includes('--execute') || args.includes('-x')) && !cargoReleaseStaysLocal(args.slice(i + 1))
      ? hit('cargo release --execute', 'the crates of the workspace to crates.io, tagged and pushed')
      : null;
  },
  gem: (args) => (sub(args) === 'push' ? hit('gem push', 'a gem version to RubyGems.org') : gemRegistryChange(args.slice(operandAt(args)))),
  poetry: (args) => (sub(args, POETRY_VALUED) === 'publish' && !dryRun(args) ? hit('poetry publish', 'a package version to PyPI') : null),
  uv: (args) => (sub(args, UV_VALUED) === 'publish' && !dryRun(args) ? hit('uv publish', 'a package version to PyPI') : null),
  twine: (args) => (sub(args) === 'upload' ? hit('twine upload', 'distributions to PyPI (a file name, once used, can never be uploaded again)') : null),
  hatch: (args) => (sub(args) === 'publish' ? hit('hatch publish', 'a package version to PyPI') : null),
  flit: (args) => (sub(args) === 'publish' ? hit('flit publish', 'a package version to PyPI') : null),
  pdm: (args) => (sub(args) === 'publish' && !dryRun(args) ? hit('pdm publish', 'a package version to PyPI') : null),
  goreleaser,
  docker: containerPush('docker'),
  podman: containerPush('podman'),
  nerdctl: containerPush('nerdctl'),
  buildah: containerPush('buildah'),
  'docker-compose': (args) => (sub(args, COMPOSE_VALUED) === 'push' ? imagePush('docker-compose push') : null),
  crane: (args) => {
    const s = sub(args);
    if (s === 'delete') return unpublishHit('crane delete', 'an image');
    // `crane tag REF latest`: a tag moved on the registry to another image, what every pull of it gets from then on
    return s === 'push' || s === 'copy' || s === 'cp' || s === 'tag' ? imagePush(`crane ${s}`) : null;
  },
  oras,
  regctl,
  skopeo,
  ko,
  conan: (args) => (sub(args, CONAN_VALUED) === 'upload' && !dryRun(args) ? hit('conan upload', 'package recipes and binaries to a Conan remote') : null),
  choco: (args) => (sub(args) === 'push' ? hit('choco push', 'a package version to a Chocolatey feed') : null),
  // winget's manifests: `wingetcreate submit`, or `new|update … --submit` (`-s`), opens the pull request that publishes them
  wingetcreate: (args) =>
    sub(args) === 'submit' || hasOption(args, '--submit') || args.includes('-s')
      ? hit('wingetcreate submit', "a package's manifest to winget's community repository")
      : null,
  // kaniko's `executor` builds and pushes to each `--destination` (`-d`), unless `--no-push`
  executor: (args) =>
    (hasOption(args, '--destination') || args.includes('-d')) && !hasOption(args, '--no-push') ? imagePush('kaniko executor --destination') : null,
  helm: (args) => {
    const s = sub(args, HELM_VALUED);
    return s === 'push' || s === 'cm-push' ? hit(`helm ${s}`, 'a chart version to a chart registry') : null;
  },
  mvn,
  mvnw: mvn,
  mvnd: mvn,
  gradle,
  gradlew: gradle,
  dotnet: (args) => {
    const i = operandAt(args);
    return args[i] === 'nuget' ? nugetVerb('dotnet nuget', args[operandAt(args, undefined, i + 1)]) : null;
  },
  nuget: (args) => nugetVerb('nuget', sub(args)),
};
