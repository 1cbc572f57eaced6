import type { Dep, Notes } from './facts.ts';
import { otherJvmFrameworks } from './jvm-frameworks.ts';
import { stripXmlComments, withoutBlocks, xmlBlocks, xmlText } from './markup.ts';

/** What one JVM build file says; jvm.ts merges the parts of a folder. */
export interface JvmPart {
  manifest: string;
  name: string | null;
  languages: string[];
  tool: string;
  runtime: string | null;
  frameworks: Dep[];
  testRunners: Dep[];
  traits: string[];
  /** sub-projects / modules it declares */
  modules: string[];
}

interface Coord {
  group: string | null;
  artifact: string | null;
  version: string | null;
}

// sections whose groupId/artifactId are not the project's own
const NOT_OWN = [
  'parent',
  'dependencies',
  'dependencyManagement',
  'build',
  'profiles',
  'reporting',
  'repositories',
  'pluginRepositories',
  'distributionManagement',
  'modules',
  'properties',
  'developers',
  'contributors',
  'licenses',
  'scm',
  'organization',
  'issueManagement',
  'ciManagement',
  'mailingLists',
];

/** Facts of a pom.xml: coordinates, frameworks (Spring Boot, Quarkus, Micronaut, ...), JUnit/TestNG, Kotlin, Java level, modules. */
export function readPom(path: string, text: string, notes: Notes): JvmPart | null {
  const xml = stripXmlComments(text);
  if (!/<project[\s>]/.test(xml)) {
    notes.add(`\`${path}\` has no <project> element: skipped`);
    return null;
  }
  const props = new Map<string, string>();
  for (const block of xmlBlocks(xml, 'properties')) {
    for (const m of block.matchAll(/<([\w.-]+)>([^<]*)<\/\1\s*>/g)) if (!props.has(m[1]!)) props.set(m[1]!, m[2]!.trim());
  }
  const resolve = (v: string | null): string | null => (v ? v.replace(/\$\{([\w.-]+)\}/g, (whole, k: string) => props.get(k) ?? whole) : null);
  const coord = (x: string): Coord => ({ group: xmlText(x, 'groupId'), artifact: xmlText(x, 'artifactId'), version: resolve(xmlText(x, 'version')) });

  const parentBlock = xmlBlocks(xml, 'parent')[0];
  const parent = parentBlock === undefined ? null : coord(parentBlock);
  const own = coord(withoutBlocks(xml, NOT_OWN));
  const group = own.group ?? parent?.group ?? null;
  const deps = xmlBlocks(xml, 'dependency').map(coord);
  const plugins = xmlBlocks(xml, 'plugin').map(coord);
  const all = [...deps, ...plugins, ...(parent ? [parent] : [])];

  const frameworks: Dep[] = [];
  const boot = parent?.artifact === 'spring-boot-starter-parent' ? parent : (all.find((c) => c.group === 'org.springframework.boot') ?? null);
  if (boot) frameworks.push({ name: 'Spring Boot', version: boot.version ?? resolve(props.get('spring-boot.version') ?? null) });
  frameworks.push(...otherJvmFrameworks(all));

  const testRunners: Dep[] = [];
  const jupiter = deps.find((c) => c.group === 'org.junit.jupiter' || (c.group === 'org.junit' && c.artifact === 'junit-bom'));
  if (jupiter) testRunners.push({ name: 'JUnit 5', version: jupiter.version });
  else if (deps.some((c) => c.artifact === 'spring-boot-starter-test')) testRunners.push({ name: 'JUnit 5 (spring-boot-starter-test)', version: null });
  const junit4 = deps.find((c) => c.group === 'junit' && c.artifact === 'junit');
  if (junit4) testRunners.push({ name: 'JUnit 4', version: junit4.version });
  const testng = deps.find((c) => c.group === 'org.testng');
  if (testng) testRunners.push({ name: 'TestNG', version: testng.version });

  const kotlin = all.some((c) => c.artifact === 'kotlin-maven-plugin' || (c.artifact ?? '').startsWith('kotlin-stdlib'));
  const level = props.get('java.version') ?? props.get('maven.compiler.release') ?? props.get('maven.compiler.source') ?? null;
  const modules = xmlBlocks(xml, 'modules').flatMap((b) => xmlBlocks(b, 'module').map((m) => m.trim()));
  const traits: string[] = [];
  if (parent?.artifact) traits.push(`parent ${parent.group ?? '?'}:${parent.artifact}${parent.version ? `:${parent.version}` : ''}`);
  const packaging = xmlText(withoutBlocks(xml, NOT_OWN), 'packaging');
  if (packaging) traits.push(`packaging ${packaging}`);
  if (modules.length) traits.push(`multi-module (${modules.length} modules)`);
  return {
    manifest: path,
    name: own.artifact ? `${group ? `${group}:` : ''}${own.artifact}` : null,
    languages: kotlin ? ['Kotlin'] : ['Java'],
    tool: 'maven',
    runtime: level ? `Java ${level}` : null,
    frameworks,
    testRunners,
    traits,
    modules,
  };
}
