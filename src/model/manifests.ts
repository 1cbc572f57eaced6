/**
 * The dependency manifests `dep:<name>` anchors read: package.json, requirements*.txt,
 * pyproject.toml, Cargo.toml and go.mod, wherever they are in the tree (group 1: the file's name).
 */
export const MANIFEST = /(?:^|\/)(package\.json|requirements[^/]*\.txt|pyproject\.toml|Cargo\.toml|go\.mod)$/;

/** The same names as git pathspecs, anywhere in the tree (`git status -- <these>`). */
export const MANIFEST_PATHSPECS = ['package.json', 'requirements*.txt', 'pyproject.toml', 'Cargo.toml', 'go.mod'].map((n) => `:(glob)**/${n}`);

/** True for a manifest `dep:` anchors read (not under node_modules/ or vendor/). */
export function isManifest(path: string): boolean {
  return MANIFEST.test(path) && !/(?:^|\/)(?:node_modules|vendor)\//.test(path);
}
