import type { Dep, Notes, ProjectFacts, ScanInput } from './facts.ts';
import { inDir, indexOf, sortedUnique } from './files.ts';
import { readGradle, readGradleSettings } from './gradle.ts';
import { type JvmPart, readPom } from './maven.ts';

/** Build files that make a folder a JVM project. */
export const JVM_BUILD_FILES = ['pom.xml', 'build.gradle', 'build.gradle.kts'] as const;

/** The settings.gradle(.kts) of a folder, parsed, with its path. */
export function gradleSettingsIn(input: ScanInput, dir: string): { path: string; name: string | null; include: string[] } | null {
  for (const f of ['settings.gradle.kts', 'settings.gradle']) {
    const path = inDir(dir, f);
    const text = input.read(path);
    if (text !== null) return { path, ...readGradleSettings(text) };
  }
  return null;
}

/** The JVM project in `dir`: pom.xml and/or build.gradle(.kts), merged. */
export function detectJvm(input: ScanInput, dir: string, notes: Notes): ProjectFacts | null {
  const ix = indexOf(input);
  const parts: JvmPart[] = [];
  const manifests: string[] = [];
  const pomPath = inDir(dir, 'pom.xml');
  const pom = input.read(pomPath);
  if (pom !== null) {
    const part = readPom(pomPath, pom, notes);
    if (part) parts.push(part);
  }
  const settings = gradleSettingsIn(input, dir);
  for (const f of ['build.gradle.kts', 'build.gradle']) {
    const path = inDir(dir, f);
    const text = input.read(path);
    if (text !== null) parts.push(readGradle(path, text, settings));
  }
  if (parts.length === 0) return null;
  manifests.push(...parts.map((p) => p.manifest));
  if (settings && parts.some((p) => p.tool === 'gradle')) manifests.push(settings.path);
  const traits = parts.flatMap((p) => p.traits);
  if (ix.has(inDir(dir, 'mvnw'))) traits.push('Maven wrapper (mvnw)');
  if (ix.has(inDir(dir, 'gradlew'))) traits.push('Gradle wrapper (gradlew)');
  const prefix = dir === '.' ? '' : `${dir}/`;
  const languages = new Set(parts.flatMap((p) => p.languages));
  if (ix.files.some((f) => f.startsWith(`${prefix}src/main/kotlin/`) && f.endsWith('.kt'))) languages.add('Kotlin');
  if (ix.files.some((f) => f.startsWith(`${prefix}src/main/java/`) && f.endsWith('.java'))) languages.add('Java');
  return {
    dir,
    ecosystem: 'jvm',
    manifests,
    name: parts.find((p) => p.name)?.name ?? null,
    languages: ['Java', 'Kotlin'].filter((l) => languages.has(l)),
    tools: sortedUnique(parts.map((p) => p.tool)),
    runtime: parts.find((p) => p.runtime)?.runtime ?? null,
    frameworks: mergeDeps(parts.flatMap((p) => p.frameworks)),
    testRunners: mergeDeps(parts.flatMap((p) => p.testRunners)),
    traits: sortedUnique(traits),
  };
}

/** One entry per name, the first version given kept. */
export function mergeDeps(deps: Dep[]): Dep[] {
  const out = new Map<string, Dep>();
  for (const d of deps) {
    const prev = out.get(d.name);
    if (!prev || (prev.version === null && d.version)) out.set(d.name, d);
  }
  return [...out.values()];
}
