import { ignoredSettings } from '../core/ignored-settings.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { type Diagnostic, readState } from '../core/state.ts';
import { type RemoteProposal, remoteProposals } from '../review/remote-proposals.ts';

export interface StoreStatus {
  ref: string;
  commit: string;
  /** committer date of the tip */
  date: string;
  repository: string;
  counts: Record<string, Record<string, number>>;
  diagnostics: Diagnostic[];
  /** the errors among them: what `axme fsck` is for */
  problems: number;
  /** the machine-local settings the shared axme.yaml sets, ignored here (core/ignored-settings.ts): said apart, not problems */
  ignoredSettings: string[];
  session: string | null;
  actor: string;
  /** the proposals open on the remotes as last fetched, a teammate's too (review/remote-proposals.ts); none with `at` */
  proposals: RemoteProposal[];
}

/** Where the knowledge is and how much of each kind, by status; problems found reading it. */
export async function storeStatus(kb: KnowledgeBase, opts: { at?: string | undefined } = {}): Promise<StoreStatus> {
  const state = await readState(kb, opts.at);
  const counts: Record<string, Record<string, number>> = {};
  for (const [kind, list] of Object.entries(state.items) as Array<[string, Array<{ status?: string }>]>) {
    const byStatus: Record<string, number> = {};
    for (const i of list) byStatus[i.status ?? 'present'] = (byStatus[i.status ?? 'present'] ?? 0) + 1;
    counts[kind] = byStatus;
  }
  const c = await kb.repo.backend.readCommit(state.commit!);
  return {
    ref: kb.ref,
    commit: state.commit!,
    date: new Date(c.committer.timestamp * 1000).toISOString(),
    repository: kb.repo.gitDir,
    counts,
    diagnostics: state.diagnostics,
    problems: state.diagnostics.filter((d) => d.severity === 'error').length,
    ignoredSettings: ignoredSettings(state.diagnostics),
    session: kb.session ?? null,
    actor: kb.actor,
    proposals: opts.at === undefined ? await remoteProposals(kb) : [],
  };
}
