import { detectDotnet, isDotnetProject } from './dotnet.ts';
import type { Ecosystem, Notes, ProjectFacts, ScanInput, StackFacts } from './facts.ts';
import { baseOf, byCodeUnit, depthOf, dirOf, inTestTree, MANIFEST_DEPTH } from './files.ts';
import { detectGo } from './go.ts';
import { detectJvm, JVM_BUILD_FILES } from './jvm.ts';
import { detectNode } from './node.ts';
import { detectPython, isPythonManifest } from './python.ts';
import { detectRust } from './rust.ts';

const ORDER: Ecosystem[] = ['node', 'python', 'go', 'rust', 'jvm', 'dotnet'];

/**
 * The projects of the tree: every manifest in a folder at most MANIFEST_DEPTH deep (test folders
 * and fixtures left out), one project per folder and ecosystem (a .NET project file is a project
 * of its own). Sorted by folder, the top level first.
 */
export function detectStack(input: ScanInput, notes: Notes): StackFacts {
  const projects: ProjectFacts[] = [];
  const pythonDirs = new Set<string>();
  const jvmDirs = new Set<string>();
  const add = (p: ProjectFacts | null) => {
    if (p) projects.push(p);
  };
  for (const path of input.files) {
    if (depthOf(path) > MANIFEST_DEPTH || inTestTree(path)) continue;
    const name = baseOf(path);
    if (name === 'package.json') add(detectNode(input, path, notes));
    else if (name === 'go.mod') add(detectGo(input, path));
    else if (name === 'Cargo.toml') add(detectRust(input, path, notes));
    else if (isDotnetProject(name)) add(detectDotnet(input, path, notes));
    else if (isPythonManifest(name)) pythonDirs.add(dirOf(path));
    else if ((JVM_BUILD_FILES as readonly string[]).includes(name)) jvmDirs.add(dirOf(path));
  }
  for (const dir of pythonDirs) add(detectPython(input, dir, notes));
  for (const dir of jvmDirs) add(detectJvm(input, dir, notes));
  projects.sort((a, b) =>
    a.dir === b.dir
      ? ORDER.indexOf(a.ecosystem) - ORDER.indexOf(b.ecosystem) || byCodeUnit(a.manifests[0]!, b.manifests[0]!)
      : a.dir === '.'
        ? -1
        : b.dir === '.'
          ? 1
          : byCodeUnit(a.dir, b.dir),
  );
  return { projects };
}
