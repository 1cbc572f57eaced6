import { type Hit, hasOption, hasShort, operands, optionValues, type ToolCheck } from './args.ts';

/**
 * The publish family's site and app publishers: a built site pushed to the branch a host serves
 * (`ghp-import -p`, the gh-pages package's CLI but with `--no-push`), an Electron app's installers
 * uploaded to its release (`electron-builder --publish always`, `electron-builder publish`), Helm
 * charts uploaded to a GitHub release and their index pushed (chart-releaser's `cr upload`, `cr
 * index --push`), and R's and Julia's publishing calls in a one-liner (`devtools::release()`,
 * `pkgdown::deploy_to_branch()`, `Registrator.register()`). Their local steps pass: `ghp-import`
 * without `-p`, `electron-builder --publish never`, `cr package`, `pkgdown::build_site()`.
 */

function hit(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}: what it puts where others take it from cannot be called back` };
}

/** electron-builder's `--publish`/`-p` policies that upload (`never` does not), and its `publish` command. */
const electronBuilder: ToolCheck = (args) => {
  if (operands(args)[0] === 'publish') return hit('electron-builder publish', "uploads the app's installers to its release host");
  const policy = optionValues(args, '--publish', '-p').find((p) => p !== 'never');
  return policy !== undefined ? hit(`electron-builder --publish ${policy}`, "uploads the built installers to the app's release host") : null;
};

/** The R code of `-e` and Julia's of `-e`/`-E`/`--eval`, joined. */
function code(args: readonly string[], ...options: string[]): string {
  return optionValues(args, ...options).join('\n');
}

/** R's calls that submit a package to CRAN or push its site to the branch GitHub Pages serves. */
const R_PUBLISH = /\b(?:devtools::)?(?:release|submit_cran)\s*\(|\bpkgdown::deploy_(?:to_branch|site_github)\s*\(/;
/** `release(`/`submit_cran(` alone only where devtools is attached (`library(devtools)`): other packages have a `release` of their own. */
const rScript: ToolCheck = (args) => {
  const text = code(args, '-e', '--expr');
  const m = R_PUBLISH.exec(text);
  if (!m) return null;
  if (!m[0].includes('::') && !/\b(?:library|require)\s*\(\s*["']?devtools\b/.test(text)) return null;
  return hit(`R ${m[0].replace(/\s*\($/, '()')}`, 'submits the package to CRAN or pushes its site to the published branch');
};

/** Julia's registration of a package version in a registry (General, or a team's): Registrator's or LocalRegistry's `register`. */
const julia: ToolCheck = (args) => {
  const text = code(args, '-e', '-E', '--eval', '--print');
  return /\b(?:Registrator|LocalRegistry)\b/.test(text) && /\bregister\s*\(/.test(text)
    ? hit('julia register()', "registers the package's version in a registry its users install from")
    : null;
};

export const SITE_TOOLS: Record<string, ToolCheck> = {
  'ghp-import': (args) =>
    hasOption(args, '--push') || hasShort(args, 'p') ? hit('ghp-import --push', 'pushes the built site to the branch its host serves') : null,
  // gh-pages' CLI pushes unless `--no-push` (`-n`)
  'gh-pages': (args) =>
    hasOption(args, '--no-push') || hasShort(args, 'n')
      ? null
      : hit('gh-pages', 'commits the built folder to the gh-pages branch and pushes it to the host that serves it'),
  'electron-builder': electronBuilder,
  cr: (args) => {
    const sub = operands(args)[0];
    if (sub === 'upload') return hit('cr upload', 'uploads the packaged charts to GitHub releases');
    return sub === 'index' && hasOption(args, '--push') ? hit('cr index --push', 'pushes the chart index users install from') : null;
  },
  R: rScript,
  Rscript: rScript,
  julia,
};
