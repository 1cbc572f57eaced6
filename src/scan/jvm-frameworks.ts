import type { Dep } from './facts.ts';

/** JVM frameworks besides Spring Boot (which has its own parent/plugin rules), by Maven group and Gradle plugin id. */
const FRAMEWORKS: Array<{ name: string; group: string; plugin?: string }> = [
  { name: 'Quarkus', group: 'io.quarkus', plugin: 'io.quarkus' },
  { name: 'Micronaut', group: 'io.micronaut', plugin: 'io.micronaut.application' },
  { name: 'Ktor', group: 'io.ktor', plugin: 'io.ktor.plugin' },
  { name: 'Vert.x', group: 'io.vertx' },
  { name: 'Dropwizard', group: 'io.dropwizard' },
  { name: 'Helidon', group: 'io.helidon' },
];

/**
 * The frameworks named by a build's coordinates (dependencies, plugins, parent, BOMs) or its
 * Gradle plugin ids; the version is the first one given.
 */
export function otherJvmFrameworks(
  coords: Array<{ group: string | null; version: string | null }>,
  plugins: Array<{ id: string; version: string | null }> = [],
): Dep[] {
  const out: Dep[] = [];
  for (const f of FRAMEWORKS) {
    const hits = coords.filter((c) => c.group === f.group || (c.group ?? '').startsWith(`${f.group}.`));
    const plugin = f.plugin ? plugins.find((p) => p.id === f.plugin) : undefined;
    if (!hits.length && !plugin) continue;
    out.push({ name: f.name, version: plugin?.version ?? hits.find((c) => c.version)?.version ?? null });
  }
  return out;
}
