import { parseYaml } from '../model/frontmatter.ts';
import type { ScanInput, Workflow } from './facts.ts';
import { byCodeUnit, indexOf } from './files.ts';

/** CI systems known by a file at the top level. */
const CI_FILES: ReadonlyArray<readonly [system: string, file: string]> = [
  ['GitLab CI', '.gitlab-ci.yml'],
  ['CircleCI', '.circleci/config.yml'],
  ['Azure Pipelines', 'azure-pipelines.yml'],
  ['Bitbucket Pipelines', 'bitbucket-pipelines.yml'],
  ['Jenkins', 'Jenkinsfile'],
  ['Travis CI', '.travis.yml'],
];

/** GitHub Actions workflows (with their `name:`) and other CI configurations. */
export function detectCi(input: ScanInput): Workflow[] {
  const ix = indexOf(input);
  const out: Workflow[] = [];
  for (const name of ix.children('.github/workflows')) {
    if (!/\.ya?ml$/.test(name)) continue;
    const file = `.github/workflows/${name}`;
    out.push({ system: 'GitHub Actions', file, name: workflowName(input.read(file) ?? '') });
  }
  out.sort((a, b) => byCodeUnit(a.file, b.file));
  for (const [system, file] of CI_FILES) if (ix.has(file)) out.push({ system, file, name: null });
  return out;
}

/** The top-level `name:` of a workflow; read line by line when the YAML does not parse. */
export function workflowName(text: string): string | null {
  try {
    const doc = parseYaml(text);
    if (typeof doc === 'object' && doc !== null && !Array.isArray(doc)) {
      const name = (doc as Record<string, unknown>).name;
      return typeof name === 'string' && name.trim() ? oneLineName(name) : null;
    }
    return null;
  } catch {
    const m = /^name:[ \t]*(["']?)(.+?)\1[ \t]*$/m.exec(text);
    return m ? oneLineName(m[2]!) : null;
  }
}

function oneLineName(s: string): string {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}
