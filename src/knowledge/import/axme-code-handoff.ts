import { Handoff } from '../../model/handoff.ts';
import { slugify } from '../../model/slug.ts';
import { parseAs } from './axme-code-values.ts';

/** AXME's handoff: `Date: … | Session: … | Source: …`, `Stopped at: …`, then `## ` sections. */
export function readHandoff(text: string, rel: string): Handoff {
  const t = text.replace(/\r\n?/g, '\n');
  if (!/^# Session Handoff\b/m.test(t)) throw new Error('not a session handoff: expected "# Session Handoff"');
  const sec = (h: string) => {
    const v = new RegExp(`^## ${h}\\n([\\s\\S]*?)(?=\\n## |$)`, 'm').exec(t)?.[1]?.trim() ?? '';
    return v === 'None' ? '' : v;
  };
  const date = /Date: (\S+)/.exec(t)?.[1] ?? '';
  const session = /Session: (\S+)/.exec(t)?.[1] ?? /^plans\/handoff-([^/]+)\.md$/.exec(rel)?.[1] ?? '';
  const source = /Source: (\S+)/.exec(t)?.[1];
  const prs = sec('PRs')
    .split('\n')
    .map((l) => /^- \[(\w+)\] (.+?) - (.+)$/.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ status: m[1]!, title: m[2]!, url: m[3]! }));
  const dirty = sec('Dirty Branches')
    .split('\n')
    .map((l) => l.replace(/^[-*]\s*/, '').trim())
    .filter(Boolean);
  if (!session) throw new Error('handoff without a session id (no "Session:" line, not named handoff-<id>.md)');
  return parseAs(Handoff, {
    slug: slugify(session, 'handoff'),
    session,
    source: source === 'auditor' ? 'auditor' : 'agent',
    stopped_at: /^Stopped at: (.*)$/m.exec(t)?.[1]?.trim() ?? '',
    prs,
    dirty_branches: dirty,
    summary: sec('Summary'),
    in_progress: sec('In Progress'),
    next_steps: sec('Next Steps'),
    test_results: sec('Test Results'),
    blockers: sec('Blockers'),
    created: date,
    updated: date,
  });
}
