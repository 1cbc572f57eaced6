import { type Hit, hasOption, operandAt, operands, type ToolCheck } from './args.ts';

/**
 * The publish family's registry changes past an upload (docs/safety.md), as `npm unpublish` and
 * `npm owner add` are: a version withdrawn from what installs resolve (`cargo yank`, `gem yank`;
 * not `cargo yank --undo`), someone given the right to publish (`cargo owner --add`, `gem owner
 * --add`); and the uploads of the tools the other files do not name: setuptools' own `python
 * setup.py … upload` (and `register`), Bundler's gem task `rake release` (the gem pushed, the
 * version tagged and pushed), cargo-workspaces' `cargo workspaces publish`, `anaconda upload`.
 * Their listings and local builds pass: `cargo owner --list`, `gem owner NAME`, `python setup.py
 * sdist`, `rake build`, `cargo workspaces list`.
 */

function withdrawn(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}: everyone who installs the package gets the change, and it cannot be taken back quietly` };
}

function uploaded(rule: string, where: string): Hit {
  return {
    rule,
    reason: `\`${rule}\` uploads ${where} for good: a published version can be withdrawn at best, never replaced, and others may already have it`,
  };
}

/** `cargo yank` (not `--undo`), `cargo owner --add|-a`, `cargo workspaces publish`: args from the subcommand on. */
export function cargoRegistryChange(args: readonly string[]): Hit | null {
  const [verb, ...rest] = args;
  if (verb === 'yank') return rest.includes('--undo') ? null : withdrawn('cargo yank', 'takes a crate version away from what new builds resolve');
  if (verb === 'owner' && (hasOption([...rest], '--add') || rest.includes('-a')))
    return withdrawn('cargo owner --add', 'gives someone the right to publish the crate');
  if ((verb === 'workspaces' || verb === 'ws') && operands([...rest])[0] === 'publish' && !rest.includes('--dry-run'))
    return uploaded('cargo workspaces publish', "the workspace's crates to crates.io");
  return null;
}

/** `gem yank`, `gem owner NAME --add|-a`: args from the subcommand on. */
export function gemRegistryChange(args: readonly string[]): Hit | null {
  const [verb, ...rest] = args;
  if (verb === 'yank') return withdrawn('gem yank', 'takes a gem version away from RubyGems.org');
  if (verb === 'owner' && (hasOption([...rest], '--add') || rest.includes('-a')))
    return withdrawn('gem owner --add', 'gives someone the right to push the gem');
  return null;
}

/** setup.py's commands that upload: `upload` (and `register`, which claims the name on PyPI). */
const SETUP_PY_UPLOADS = new Set(['upload', 'register', 'upload_docs']);

/** `python setup.py sdist upload`: setuptools runs each command named after the script, in turn. */
const python: ToolCheck = (args) => {
  const i = operandAt(args);
  if (!/(^|\/)setup\.py$/.test(args[i] ?? '')) return null;
  const command = args.slice(i + 1).find((a) => SETUP_PY_UPLOADS.has(a));
  return command ? uploaded(`setup.py ${command}`, 'a package version to PyPI') : null;
};

/** Bundler's gem tasks that push: `rake release` (`release[remote]`, `release:rubygem_push`). */
const rake: ToolCheck = (args) =>
  operands(args).some((t) => /^release(\[.*\])?$/.test(t) || t === 'release:rubygem_push')
    ? uploaded('rake release', 'the gem to RubyGems.org, tagged and pushed')
    : null;

/** `anaconda upload PKG`: a package to anaconda.org; `anaconda remove` takes one away. */
const anaconda: ToolCheck = (args) => {
  const verb = args[operandAt(args, new Set(['-t', '--token', '-s', '--site']))];
  if (verb === 'remove') return withdrawn('anaconda remove', 'takes a package, or a version of it, off anaconda.org');
  return verb === 'upload' ? uploaded('anaconda upload', 'a package to anaconda.org') : null;
};

/**
 * The programs this file reads by some of their words only: the unknown-command rule keeps
 * reading their other words (`anaconda remove`), so they are not the family's own (knowsPublish).
 */
export const WITHDRAW_SOME_VERBS: Record<string, ToolCheck> = { python, rake, anaconda };
