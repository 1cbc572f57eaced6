import YAML from 'yaml';
import { AxmeError } from '../../model/errors.ts';
import { describeIssues } from '../../model/kind.ts';
import { RULES_PATH } from '../../model/paths.ts';
import { SafetyRules } from '../../model/safety-rules.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import type { KnowledgeState } from '../core/state.ts';

/**
 * The rules file as an editable YAML document (comments and unknown keys survive an edit).
 * A broken file is not edited over: the error says how to recover.
 */
export async function loadRulesDocument(kb: KnowledgeBase, state: KnowledgeState, staged?: string | null): Promise<YAML.Document> {
  const f = state.snapshot.files.get(RULES_PATH);
  if (staged === undefined && !f) return new YAML.Document({});
  const raw = staged ?? (f ? (await kb.repo.backend.readBlob(f.oid)).toString('utf8') : '');
  const text = raw.replace(/\r\n?/g, '\n');
  const doc = YAML.parseDocument(text, { schema: 'core', uniqueKeys: true });
  const problem =
    doc.errors[0]?.message.split('\n')[0] ??
    (() => {
      const r = SafetyRules.safeParse(doc.toJS() ?? {});
      return r.success ? undefined : describeIssues(r.error);
    })();
  if (problem) {
    throw new AxmeError(
      'CORRUPT',
      `${RULES_PATH} is broken (${problem}), so the default rules are in force. Run \`axme safety reset\` to write the defaults (the broken version stays in history: \`axme history ${RULES_PATH}\`).`,
      { path: RULES_PATH },
    );
  }
  if (!doc.contents) doc.contents = doc.createNode({}) as unknown as typeof doc.contents;
  return doc;
}

export function renderRules(doc: YAML.Document): string {
  return doc.toString({ lineWidth: 0 });
}

/** The rules a document sets (defaults for what it leaves out). */
export function rulesOf(doc: YAML.Document): SafetyRules {
  return SafetyRules.parse(doc.toJS() ?? {});
}
