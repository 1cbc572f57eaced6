import { AxmeError } from '../../model/errors.ts';
import { CONFIG_PATH, itemPath, RULES_PATH, SPECS } from '../../model/paths.ts';
import { Question } from '../../model/question.ts';
import { itemFile } from '../core/item-file.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { mutate, subjectOf } from '../core/mutate.ts';
import { readState } from '../core/state.ts';
import { answerQuestion } from '../items/question/answer-question.ts';
import { askQuestion } from '../items/question/ask-question.ts';
import { REVIEWED_BRANCH } from '../review/proposals.ts';
import type { Loosening } from './inbound.ts';

/**
 * What holds a sync until a person here takes it (docs/sync.md, "Removals are held" and
 * "Loosenings are held"): a remote change that removes items, or loosens what binds agents here.
 * Every hold of one change is reported at once, each with one open question in this store (asked
 * once per remote while open); a question whose cause is gone is withdrawn at the next sync,
 * before anything is pushed, so a hold's question is never pushed open to the remote it is about;
 * nor to another remote: while it is open, a sync with another remote pushes no knowledge there.
 */

/** What a sync holds until a person takes it. */
export type Held = 'removals' | 'loosening';
const HELD: readonly Held[] = ['removals', 'loosening'];
const ACCEPT_FLAG: Record<Held, string> = { removals: '--accept-removals', loosening: '--accept-loosening' };

/** The text of the question a hold asks: the same for every hold of one kind from one remote, so it is asked once while open. */
const heldQuestion = (held: Held, label: string) =>
  held === 'removals'
    ? `Sync held ${label}'s knowledge: it removes items this store has. Take the removal, or keep the items?`
    : `Sync held ${label}'s knowledge: it loosens what binds agents here. Take it, or keep the rules?`;

/** A remote change about to be taken, with what it removes and loosens and what the person running the sync accepts. */
export interface InboundChange {
  /** who brought it: the remote, or its reviewed branch (`origin's axme/memory`) */
  label: string;
  /** the remote synced with (the commands said name it) */
  remote: string;
  tip: string;
  removed: string[];
  loosening: Loosening;
  acceptRemovals: boolean;
  acceptLoosening: boolean;
}

/** One hold of a sync as its error's data lists it (`holds`). */
export interface SyncHold {
  held: Held;
  /** who brought the change held: the remote, or its reviewed branch (`origin's axme/memory`) */
  from: string;
  /** the commit held */
  tip: string;
  /** removals: the paths; loosening: the lines said, each rule value named */
  what: string[];
  /** the path of the open question it asked; null when it could not be recorded */
  question: string | null;
  /** the command that takes it */
  take: string;
}

/** The holds of one remote change, asked: what the error of a held sync says of it. */
export interface HeldChange {
  change: InboundChange;
  holds: SyncHold[];
  /** the message's part of each hold: what, why, what to do */
  parts: string[];
}

/** The error of a held sync (WRONG_STATE): every change it holds (the remote's knowledge, its reviewed branch), each hold named at once. */
export class SyncHeld extends AxmeError {
  constructor(readonly changes: HeldChange[]) {
    const first = changes[0]!.change;
    const holds = changes.flatMap((c) => c.holds);
    const kinds = HELD.filter((h) => holds.some((x) => x.held === h));
    const said = changes.map((c) => `holding ${c.change.label}'s knowledge (${c.change.tip.slice(0, 12)}): ${c.parts.join(' And ')}`);
    const both = kinds.length > 1 ? ` To take both (a person): \`axme sync ${first.remote} ${kinds.map((h) => ACCEPT_FLAG[h]).join(' ')}\`.` : '';
    const removed = [...new Set(holds.filter((h) => h.held === 'removals').flatMap((h) => h.what))].sort();
    const loosening = changes.filter((c) => c.holds.some((h) => h.held === 'loosening')).map((c) => c.change.loosening);
    super('WRONG_STATE', `${said.join(' Also ')}${both}`, {
      remote: first.remote,
      tip: first.tip,
      ...(removed.length ? { removed } : {}),
      ...(loosening.length ? { reasons: [...new Set(loosening.flatMap((l) => l.reasons))], said: [...new Set(loosening.flatMap((l) => l.said))] } : {}),
      holds,
    });
  }
}

/**
 * Stops the sync (SyncHeld, WRONG_STATE) before a remote change that removes items or loosens what
 * binds agents here lands, naming every hold at once (`data.holds`): axme never deletes an item in
 * normal use, and a commit cannot say a person approved a loosening, since whoever can push could
 * say so. The local changes are the open questions (one a hold) and the withdrawal of one whose
 * cause this change no longer has; nothing is taken or pushed. An agent that passes
 * --accept-loosening is refused (NOT_ALLOWED). Returns when nothing is held.
 */
export async function holdInbound(kb: KnowledgeBase, c: InboundChange): Promise<void> {
  const { reasons, said } = c.loosening;
  if (reasons.length && c.acceptLoosening && kb.actor !== 'human')
    throw new AxmeError(
      'NOT_ALLOWED',
      `taking ${c.label}'s knowledge (${c.tip.slice(0, 12)}) would loosen what binds agents here (${said.join('; ')}), which only a person may do: ask the user to run \`axme sync ${c.remote} ${ACCEPT_FLAG.loosening}\` themselves. Nothing was taken or pushed.`,
      { remote: c.remote, reasons, said, tip: c.tip, actor: kb.actor },
    );
  const caused: Record<Held, boolean> = { removals: c.removed.length > 0, loosening: reasons.length > 0 };
  const accepted: Record<Held, boolean> = { removals: c.acceptRemovals, loosening: c.acceptLoosening };
  const held = HELD.filter((h) => caused[h] && !accepted[h]);
  if (!held.length) return;
  // a question this change gives no cause for any more is withdrawn; one caused but accepted waits for settleHeld
  await withdrawHeld(
    kb,
    [{ label: c.label, tip: c.tip }],
    HELD.filter((h) => !caused[h]),
  );
  const holds: SyncHold[] = [];
  const parts: string[] = [];
  for (const h of held) {
    const { hold, part } = await askHeld(kb, h, c);
    holds.push(hold);
    parts.push(part);
  }
  throw new SyncHeld([{ change: c, holds, parts }]);
}

/** One hold's question asked (or found open), and its part of the message: what, why, what to do. */
async function askHeld(kb: KnowledgeBase, held: Held, c: InboundChange): Promise<{ hold: SyncHold; part: string }> {
  const take = `axme sync ${c.remote} ${ACCEPT_FLAG[held]}`;
  const n = c.removed.length;
  const shown = c.removed.slice(0, 20).join(', ') + (n > 20 ? `, and ${n - 20} more` : '');
  const said = c.loosening.said.join('; ');
  const diff =
    held === 'removals'
      ? `git diff --stat ${kb.ref} ${c.tip.slice(0, 12)}`
      : `git diff ${kb.ref} ${c.tip.slice(0, 12)} -- ${RULES_PATH} ${CONFIG_PATH} ${SPECS.decision.dir}`;
  const context =
    held === 'removals'
      ? `At ${c.label}'s commit ${c.tip}, ${n} item${n === 1 ? ' is' : 's are'} removed: ${shown}. Nothing was taken or pushed. See the change with \`git diff --stat ${kb.ref} ${c.tip}\`. To take it: \`${take}\`. To keep the items: restore them where they were removed, then sync. Answer this question once it is settled; a sync withdraws it once ${c.label} no longer removes them.`
      : `At ${c.label}'s commit ${c.tip}: ${said}. Nothing was taken or pushed. See the change with \`${diff}\`. To take it (a person, not an agent): \`${take}\`. To keep what binds agents: restore it on ${c.label}, then sync. Answer this question once it is settled; a sync withdraws it once ${c.label} no longer loosens it.`;
  let question: string | null = null;
  let asked: string;
  try {
    const q = await askQuestion(kb, { question: heldQuestion(held, c.label), context });
    question = q.path;
    asked = ` Asked in ${q.item.id} (${q.path}).`;
  } catch (err) {
    asked = ` (The question could not be recorded: ${(err as Error).message.split('\n')[0]}.)`;
  }
  const part =
    held === 'removals'
      ? `it removes ${n} item${n === 1 ? '' : 's'} this store has — ${shown}. axme never deletes items in normal use, so nothing was taken or pushed.${asked} See the change with \`${diff}\`; to take the removal run \`${take}\`; to keep the items, restore them on ${c.remote} and sync again.`
      : `it loosens what binds agents here — ${said}. Only a person here takes that, so nothing was taken or pushed.${asked} See the change with \`${diff}\`; to take it run \`${take}\` yourself; to keep the rules, restore them on ${c.remote} and sync again.`;
  return { hold: { held, from: c.label, tip: c.tip, what: held === 'removals' ? c.removed : c.loosening.said, question, take }, part };
}

/** After a hold was taken on purpose (--accept-removals, --accept-loosening): answers the open question a held sync from `label` asked. */
export async function settleHeld(kb: KnowledgeBase, held: Held, label: string, taken: string[]): Promise<void> {
  const text = heldQuestion(held, label);
  const open = (await readState(kb)).items.question.find((q) => q.status === 'open' && q.question === text);
  const what = held === 'removals' ? `${taken.length} item${taken.length === 1 ? '' : 's'} removed` : `a person took what loosens: ${taken.join('; ')}`;
  if (open)
    await answerQuestion(kb, {
      question_id: open.id,
      answer: `Taken with axme sync ${ACCEPT_FLAG[held]} (${kb.now().toISOString().slice(0, 10)}): ${what}.`,
    });
}

/**
 * Withdraws (archives, with an answer saying why) the open questions holds from `sources` asked
 * whose cause is gone: what each source holds now (`tip`, when known) no longer removes or loosens
 * (`kinds`, default both: a sync that reached its push holds nothing). One commit; none when none
 * is open. Run before a sync pushes, so a hold's question never reaches the remote it is about open.
 */
export async function withdrawHeld(kb: KnowledgeBase, sources: Array<{ label: string; tip: string | null }>, kinds: readonly Held[] = HELD): Promise<void> {
  const asked = new Map(sources.flatMap(({ label, tip }) => kinds.map((h) => [heldQuestion(h, label), { h, label, tip }] as const)));
  if (!asked.size) return;
  const open = (await readState(kb)).items.question.filter((q) => q.status === 'open' && asked.has(q.question));
  if (!open.length) return;
  await mutate(kb, (state) => {
    const now = kb.now().toISOString();
    const files = new Map<string, string | null>();
    const withdrawn: Question[] = [];
    for (const old of state.items.question) {
      const why = old.status === 'open' ? asked.get(old.question) : undefined;
      if (!why) continue;
      const gone = why.h === 'removals' ? 'no longer removes items this store has' : 'no longer loosens what binds agents here';
      const at = why.tip ? ` at ${why.tip.slice(0, 12)}` : '';
      const item = Question.parse({
        ...old,
        status: 'archived',
        answer: `Withdrawn by axme sync (${now.slice(0, 10)}): ${why.label}'s knowledge${at} ${gone}; nothing is held for it any more.`,
        answered_at: now,
        archived_at: now,
        updated: now,
      });
      const [path, text] = itemFile('question', item);
      files.set(path, text);
      withdrawn.push(item);
    }
    if (!withdrawn.length) return { result: withdrawn };
    const first = withdrawn[0]!;
    return {
      result: withdrawn,
      files,
      subject: subjectOf('question', 'archive', withdrawn.map((q) => q.id).join(', '), first.question.split('\n')[0]!),
      event: 'question.archived',
    };
  });
}

/** An open question a hold asked here: about which remote, for what, and the command that takes it. */
export interface OpenHold {
  id: string;
  path: string;
  held: Held;
  /** the source held: the remote, or its reviewed branch */
  label: string;
  remote: string;
  take: string;
}

/** The hold a question asks about, read from its text (heldQuestion); null for any other question. */
function holdAsked(question: string): { held: Held; label: string; remote: string } | null {
  const prefix = 'Sync held ';
  for (const held of HELD) {
    const suffix = heldQuestion(held, '').slice(prefix.length);
    if (!question.startsWith(prefix) || !question.endsWith(suffix) || question.length <= prefix.length + suffix.length) continue;
    const label = question.slice(prefix.length, question.length - suffix.length);
    const reviewed = `'s ${REVIEWED_BRANCH}`;
    return { held, label, remote: label.endsWith(reviewed) ? label.slice(0, -reviewed.length) : label };
  }
  return null;
}

/**
 * The questions holds of other remotes than `remote` asked that are open at `tip` and not already
 * open at `remoteTip` (what `remote` holds): pushing `tip` to `remote` would publish them open
 * there. A hold's question is this clone's and about the remote it names, so it stays here until
 * it is settled (docs/sync.md, "A hold's question stays here while open").
 */
export async function holdsOpenElsewhere(kb: KnowledgeBase, remote: string, tip: string, remoteTip: string | null): Promise<OpenHold[]> {
  const open = (state: Awaited<ReturnType<typeof readState>>) =>
    state.items.question.flatMap((q) => {
      const about = q.status === 'open' ? holdAsked(q.question) : null;
      return about && about.remote !== remote
        ? [{ id: q.id, path: itemPath('question', q.slug), ...about, take: `axme sync ${about.remote} ${ACCEPT_FLAG[about.held]}` }]
        : [];
    });
  const here = open(await readState(kb, tip));
  if (!here.length || !remoteTip) return here;
  const there = new Set(open(await readState(kb, remoteTip)).map((h) => h.path));
  return here.filter((h) => !there.has(h.path));
}

/** The error of a sync that took `remote`'s knowledge but pushed none there, because a hold of another remote is open here (holdsOpenElsewhere). */
export function heldElsewhere(remote: string, open: OpenHold[]): AxmeError {
  const named = open.map(
    (h) => `${h.id} (${h.path}: ${h.label}'s knowledge is held, it ${h.held === 'removals' ? 'removes items' : 'loosens what binds agents here'})`,
  );
  const settle = [
    ...new Set(
      open.map(
        (h) => `\`${h.take}\`${h.held === 'loosening' ? ' (a person)' : ''} takes it, or restore what it changes on ${h.remote} and \`axme sync ${h.remote}\``,
      ),
    ),
  ];
  return new AxmeError(
    'WRONG_STATE',
    `did not push the knowledge to ${remote}: ${named.join(', ')} ${open.length === 1 ? 'is' : 'are'} open here, and a hold's question stays in this clone until it is settled — it is about ${[...new Set(open.map((h) => h.remote))].join(', ')}, not ${remote}. ${remote}'s knowledge was taken here; nothing is lost. Settle it (${settle.join('; ')}), then run \`axme sync ${remote}\` again.`,
    { remote, questions: open.map(({ id, path, held, label, take }) => ({ id, path, held, from: label, take })) },
  );
}
