import { parseYaml, stringifyYaml } from '../../../model/frontmatter.ts';
import { RULES_PATH } from '../../../model/paths.ts';
import type { RulesData } from '../../../model/safety-defaults.ts';
import { mergeRules, STRICTNESS } from '../../../model/safety-merge.ts';
import { RULES_HEADER, SafetyRules } from '../../../model/safety-rules.ts';
import { type FileMerge, settledOf, tieBreak, valueAt } from './file-merge.ts';
import { mergeValues, type SettleRule } from './values.ts';

/**
 * The safety rules (`path` RULES_PATH) or axme.yaml changed on both sides, merged value by value:
 * a rule's clash settles on the safer value, the format on the higher. Null when either side is
 * not a YAML mapping (the caller keeps one whole version and asks).
 */
export function mergeYamlFile(path: string, bt: string | undefined, xt: string, yt: string, oursCommit: string, theirsCommit: string): FileMerge | null {
  const parsed = [bt, xt, yt].map((t) => {
    try {
      return t === undefined ? undefined : parseYaml(t);
    } catch {
      return null;
    }
  });
  if (!(parsed[1] && parsed[2] && typeof parsed[1] === 'object' && typeof parsed[2] === 'object')) return null;
  const winner = tieBreak(oursCommit, theirsCommit);
  const r = mergeValues(parsed[0] ?? undefined, parsed[1], parsed[2], {
    textFields: new Set(),
    appendFields: new Set(),
    winner,
    special: path === RULES_PATH ? strictest : maxFormat,
  });
  // two stores that never shared rules: neither side accepted the other's exceptions, so they
  // combine like a workspace's (allows need both); with a common base an edit is an edit
  if (path === RULES_PATH && bt === undefined) {
    const [first, second] = winner === 'ours' ? [parsed[1], parsed[2]] : [parsed[2], parsed[1]];
    const strict = rulesWithoutBase(first, second);
    if (strict) Object.assign(r.value as object, strict);
  }
  const body = stringifyYaml(r.value as object);
  const settled = settledOf(path, null, path, r.clashes, (f) => valueAt(r.value, f), oursCommit, theirsCommit);
  return { text: path === RULES_PATH ? RULES_HEADER + body : body, settled };
}

/** Both sides' rules combined by mergeRules (never less strict than either); null when one side is not valid rules. */
function rulesWithoutBase(a: unknown, b: unknown): RulesData | null {
  const x = SafetyRules.safeParse(a);
  const y = SafetyRules.safeParse(b);
  return x.success && y.success ? mergeRules(x.data, y.data) : null;
}

/** Rule clashes settle on the safer value: deny beats allow, requiring beats not requiring. */
function strictest(key: string, x: unknown, y: unknown): { value: unknown; rule: SettleRule } | null {
  if (typeof x === 'boolean' && typeof y === 'boolean') {
    if (key.startsWith('allow')) return { value: x && y, rule: 'stricter' };
    if (key.startsWith('require')) return { value: x || y, rule: 'stricter' };
  }
  const o = (STRICTNESS as Record<string, readonly string[]>)[key];
  if (o && typeof x === 'string' && typeof y === 'string' && o.includes(x) && o.includes(y))
    return { value: o.indexOf(x) > o.indexOf(y) ? x : y, rule: 'stricter' };
  return null;
}

/** axme.yaml's clash of `format` settles on the higher version. */
function maxFormat(key: string, x: unknown, y: unknown): { value: unknown; rule: SettleRule } | null {
  return key === 'format' && typeof x === 'number' && typeof y === 'number' ? { value: Math.max(x, y), rule: 'later' } : null;
}
