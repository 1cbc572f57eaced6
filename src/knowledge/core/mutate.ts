import { CONFIG_PATH, classifyPath, RULES_PATH } from '../../model/paths.ts';
import { recordHandoffWritten } from '../../session/ran-here.ts';
import { commitOperation, formatCommitMessage } from '../../store/commit.ts';
import { refDamage } from '../../store/ref-damage.ts';
import type { Snapshot } from '../../store/tree.ts';
import { type KnowledgeBase, notInitialized } from './kb.ts';
import { stampLearnedContent } from './learned-content.ts';
import type { Staged } from './staging.ts';
import { type KnowledgeState, patchState, snapshotState } from './state.ts';
import { dropUnusedProposal, writeTarget } from './write-target.ts';

/** What an operation wants written: files (path -> text, null removes) and how to describe it. */
export interface Mutation<R> {
  result: R;
  /** no files: nothing is committed */
  files?: Map<string, string | null>;
  subject?: string;
  event?: string;
  body?: string;
  /** the staged working copy the files came from: the items learned anew in it get their `learned_content` (learned-content.ts) */
  staged?: Staged;
}

export interface MutateResult<R> {
  result: R;
  /** the commit written, or null when nothing changed */
  commit: string | null;
  /** the ref written: kb.ref, or the session's proposal when review is required (write-target.ts) */
  ref: string;
}

/**
 * Applies `op` to the current knowledge and commits what it returns as ONE commit, re-applying it
 * to the new tip when another writer got there first. `op` must be a pure function of the state
 * it is given (it may run several times).
 */
export async function mutate<R>(
  base: KnowledgeBase,
  op: (state: KnowledgeState) => Mutation<R> | Promise<Mutation<R>>,
  opts: { allowEmptyStore?: boolean } = {},
): Promise<MutateResult<R>> {
  const target = await writeTarget(base);
  let committed = false;
  try {
    const r = await mutateOn(target.kb, op, opts);
    committed = r.commit !== null;
    // nothing written to a proposal made for this write: it is removed, what was found is on the accepted ref
    return committed || !target.created ? r : { ...r, ref: base.ref };
  } finally {
    if (target.created && !committed) await dropUnusedProposal(target.kb, target.created);
  }
}

async function mutateOn<R>(
  kb: KnowledgeBase,
  op: (state: KnowledgeState) => Mutation<R> | Promise<Mutation<R>>,
  opts: { allowEmptyStore?: boolean },
): Promise<MutateResult<R>> {
  // the state the operation saw and what it wrote: the next state is derived from them
  let seen: { state: KnowledgeState; files: Map<string, Buffer | null> } | null = null;
  const out = await commitOperation(kb.repo, {
    ref: kb.ref,
    now: kb.now,
    apply: async (snap) => {
      if (!snap.commit && !opts.allowEmptyStore) throw notInitialized(kb);
      if (snap.commit && !isMemoryTree(snap.files)) {
        throw refDamage(kb.ref, `points at ${snap.commit.slice(0, 12)}, a commit with no axme.yaml and no axme folders`);
      }
      const state = await snapshotState(kb, snap);
      const m = await op(state);
      if (m.staged) await stampLearnedContent(kb, m.staged);
      if (!m.files || m.files.size === 0) return { change: null, result: m.result };
      const files = new Map<string, Buffer | null>();
      for (const [path, text] of m.files) files.set(path, text === null ? null : Buffer.from(text, 'utf8'));
      seen = { state, files };
      const message = formatCommitMessage(
        m.subject ?? 'update',
        {
          event: m.event ?? 'update',
          items: [...m.files.keys()],
          actor: kb.actor,
          session: kb.session,
          token: kb.principal,
        },
        m.body,
      );
      return { change: { files, message }, result: m.result };
    },
  });
  if (out.commit && out.next && seen) recordHandoffs(kb, out.next, (seen as { files: Map<string, Buffer | null> }).files);
  if (out.commit && out.next && seen) {
    // the next operation (a warm server, a close with many extractions) starts from here
    const { state, files } = seen as { state: KnowledgeState; files: Map<string, Buffer | null> };
    const next = await patchState(kb, state, out.next, files);
    if (next) kb.cache.remember(`state:${out.commit}`, next);
  }
  return { result: out.result, commit: out.commit, ref: kb.ref };
}

/**
 * Records, machine-locally, the blob of each handoff this write committed (session/ran-here.ts): a
 * handoff of this clone's session is said to its user first only while its content is one written
 * here, whichever write here made it (a close, the auditor's rewrite, a recovery).
 */
function recordHandoffs(kb: KnowledgeBase, next: Snapshot, files: Map<string, Buffer | null>): void {
  for (const [path, text] of files) {
    const c = text ? classifyPath(path) : null;
    const blob = next.files.get(path)?.oid;
    if (c?.type === 'item' && c.spec.kind === 'handoff' && blob) recordHandoffWritten(kb.repo.commonDir, c.slug, blob);
  }
}

/** A tree axme wrote (or a person edited): it has axme.yaml, or at least the rules or an item. */
function isMemoryTree(files: Map<string, unknown>): boolean {
  if (files.has(CONFIG_PATH) || files.has(RULES_PATH)) return true;
  for (const p of files.keys()) if (classifyPath(p).type === 'item') return true;
  return files.size === 0;
}

/** `<kind>: <verb> <id> <title>` */
export function subjectOf(kind: string, verb: string, id: string | undefined, title: string): string {
  return `${kind}: ${verb} ${id ? `${id} ` : ''}${title}`;
}
