// The package.json a user installs: `npm pack` / `npm publish` run `prepack` (this script with
// `strip`) before they read the manifest and `postpack` (`restore`) after. Stripped: the scripts
// and the devDependencies, which are this repository's development setup (husky's `prepare`, the
// test and bench commands, the build tools) and mean nothing to a user — everything axme runs is
// bundled into dist/ by scripts/build.mjs, so the package has no dependencies at all.
// A copy of the original is kept in package.json.pack-backup until `restore`; a stale copy (a
// pack that failed half-way) is restored first, so the manifest is never stripped twice.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const manifest = new URL('../package.json', import.meta.url);
const backup = new URL('../package.json.pack-backup', import.meta.url);
const action = process.argv[2];

if (action === 'strip') {
  if (existsSync(backup)) renameSync(backup, manifest);
  const text = readFileSync(manifest, 'utf8');
  writeFileSync(backup, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts;
  delete pkg.devDependencies;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(backup)) renameSync(backup, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
