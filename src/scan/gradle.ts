import type { Dep } from './facts.ts';
import { otherJvmFrameworks } from './jvm-frameworks.ts';
import { coordinates, stripCodeComments } from './markup.ts';
import type { JvmPart } from './maven.ts';

export interface GradlePlugin {
  id: string;
  version: string | null;
}

/** Plugins a build script applies: `id("x") version "v"`, `id 'x'`, `kotlin("jvm")`, `apply plugin: 'x'`, bare `java`. */
export function gradlePlugins(src: string): GradlePlugin[] {
  const out: GradlePlugin[] = [];
  const version = /^\s*version\s*\(?\s*["']([^"']+)["']/;
  for (const m of src.matchAll(/\bid\s*\(?\s*["']([\w.-]+)["']\s*\)?/g)) {
    out.push({ id: m[1]!, version: version.exec(src.slice(m.index + m[0].length, m.index + m[0].length + 200))?.[1] ?? null });
  }
  for (const m of src.matchAll(/\bkotlin\s*\(\s*["']([\w.-]+)["']\s*\)/g)) {
    out.push({ id: `org.jetbrains.kotlin.${m[1]}`, version: version.exec(src.slice(m.index + m[0].length, m.index + m[0].length + 200))?.[1] ?? null });
  }
  for (const m of src.matchAll(/\bapply\s*\(?\s*plugin\s*[:=]\s*["']([\w.-]+)["']/g)) out.push({ id: m[1]!, version: null });
  const block = /\bplugins\s*\{([^}]*)\}/.exec(src)?.[1] ?? '';
  for (const m of block.matchAll(/^\s*`?(java|java-library|application|groovy|scala|kotlin-dsl)`?\s*$/gm)) out.push({ id: m[1]!, version: null });
  return out;
}

/** `rootProject.name` and the included sub-projects of a settings.gradle(.kts). */
export function readGradleSettings(text: string): { name: string | null; include: string[] } {
  const src = stripCodeComments(text);
  const name = /\brootProject\.name\s*=\s*["']([^"']+)["']/.exec(src)?.[1] ?? null;
  const include: string[] = [];
  for (const m of src.matchAll(/\binclude\s*\(?((?:\s*["'][^"']+["']\s*,?)+)\)?/g)) {
    for (const s of m[1]!.matchAll(/["']([^"']+)["']/g)) include.push(s[1]!.replace(/^:/, ''));
  }
  return { name, include: [...new Set(include)].sort() };
}

/** Facts of a build.gradle or build.gradle.kts. */
export function readGradle(path: string, text: string, settings: { name: string | null; include: string[] } | null): JvmPart {
  const src = stripCodeComments(text);
  const plugins = gradlePlugins(src);
  const has = (id: string) => plugins.find((p) => p.id === id);
  const coords = coordinates(src);
  const frameworks: Dep[] = [];
  const boot = has('org.springframework.boot');
  const bootDep = coords.find((c) => c.group === 'org.springframework.boot');
  if (boot || bootDep) frameworks.push({ name: 'Spring Boot', version: boot?.version ?? bootDep?.version ?? null });
  frameworks.push(...otherJvmFrameworks(coords, plugins));

  const testRunners: Dep[] = [];
  const jupiter = coords.find((c) => c.group === 'org.junit.jupiter' || (c.group === 'org.junit' && c.artifact === 'junit-bom'));
  if (jupiter) testRunners.push({ name: 'JUnit 5', version: jupiter.version });
  else if (coords.some((c) => c.artifact === 'spring-boot-starter-test')) testRunners.push({ name: 'JUnit 5 (spring-boot-starter-test)', version: null });
  else if (/\buseJUnitPlatform\s*\(/.test(src)) testRunners.push({ name: 'JUnit Platform', version: null });
  const junit4 = coords.find((c) => c.group === 'junit' && c.artifact === 'junit');
  if (junit4) testRunners.push({ name: 'JUnit 4', version: junit4.version });
  if (
    /\bkotlin\s*\(\s*["']test(?:-junit5?)?["']\s*\)/.test(src) ||
    coords.some((c) => c.group === 'org.jetbrains.kotlin' && c.artifact.startsWith('kotlin-test'))
  )
    testRunners.push({ name: 'kotlin.test', version: null });
  const kotest = coords.find((c) => c.group === 'io.kotest');
  if (kotest) testRunners.push({ name: 'Kotest', version: kotest.version });

  const kotlinPlugin = plugins.find((p) => p.id.startsWith('org.jetbrains.kotlin.') || p.id.startsWith('kotlin-'));
  // Java sources next to Kotlin ones are found by jvm.ts from the file list
  const languages = kotlinPlugin ? ['Kotlin'] : ['Java'];
  const traits: string[] = [];
  if (kotlinPlugin) traits.push(`kotlin plugin ${kotlinPlugin.id}${kotlinPlugin.version ? ` ${kotlinPlugin.version}` : ''}`);
  if (path.endsWith('.kts')) traits.push('Gradle Kotlin DSL');
  const level =
    /\bJavaLanguageVersion\.of\s*\(\s*(\d+)\s*\)/.exec(src)?.[1] ??
    /\bjvmToolchain\s*\(\s*(\d+)\s*\)/.exec(src)?.[1] ??
    /\bsourceCompatibility\s*=\s*(?:JavaVersion\.VERSION_)?["']?([\d._]+)["']?/.exec(src)?.[1]?.replace(/^1_/, '1.').replace(/_/g, '.') ??
    null;
  if (settings?.include.length) traits.push(`multi-project (${settings.include.length} included)`);
  return {
    manifest: path,
    name: settings?.name ?? null,
    languages,
    tool: 'gradle',
    runtime: level ? `Java ${level}` : null,
    frameworks,
    testRunners,
    traits,
    modules: settings?.include ?? [],
  };
}
