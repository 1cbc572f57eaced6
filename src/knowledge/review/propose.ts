import { z } from 'zod';
import { assertRepoSlug, githubRepoOf } from '../../github/repo-slug.ts';
import { AxmeError } from '../../model/errors.ts';
import { isProposalName, MEMORY_REF } from '../../model/refs.ts';
import { slugify } from '../../model/slug.ts';
import { parseInput } from '../../model/validate.ts';
import { commitAt, fetchKnowledge, isAncestorOf, mergeBase, pickRemote, pushKnowledge, remoteKnowledgeRefs, resolve, trackingRef } from '../../store/remote.ts';
import type { KnowledgeBase } from '../core/kb.ts';
import { renderDiffMarkdown, summaryLine } from './diff/render-diff.ts';
import { semanticDiff } from './diff/semantic-diff.ts';
import { localProposals, PROPOSAL_BRANCH_PREFIX, PROPOSALS_REF_PREFIX, REVIEWED_BRANCH, reviewedMirror, reviewedTip, saveProposalRecord } from './proposals.ts';

/** `axme propose` and axme_propose: open knowledge pull requests. */
export const ProposeInput = z.object({
  title: z.string().trim().min(1).max(200).optional().describe('pull request title (default: a summary of the changes)'),
  remote: z.string().max(200).optional().describe('git remote to push the proposal branch to (default: origin, else the only remote)'),
  name: z.string().max(100).optional().describe('proposal name: the branch is axme/proposals/<name> (default: from the title, or the proposal ref)'),
  repo: z.string().max(200).optional().describe('GitHub owner/name (default: from the remote URL)'),
  ref: z
    .string()
    .max(300)
    .optional()
    .describe(
      'what to propose: refs/memory/main or a proposal (refs/memory/proposals/<name>, or just <name>); default: every pending proposal, else refs/memory/main',
    ),
});
export type ProposeInput = z.input<typeof ProposeInput>;

export interface ProposalOpened {
  name: string;
  branch: string;
  source: string;
  head: string;
  base: string;
  pr: number;
  url: string;
  /** a pull request for this branch was open already: its body was updated */
  existed: boolean;
  summary: string;
}

export interface ProposeResult {
  remote: string;
  repo: string;
  opened: ProposalOpened[];
  /** sources with nothing the reviewed branch lacks */
  skipped: Array<{ source: string; reason: string }>;
  /** the reviewed branch was created on the remote by this run */
  createdBase: boolean;
  text: string;
}

/**
 * Pushes each source's tip to `axme/proposals/<name>` on the remote (a plain branch: the host's
 * review machinery works) and opens a pull request into `axme/memory` whose body is the semantic
 * diff. `axme/memory` is created from the remote's refs/memory/main when missing, and moved up to
 * it when it is behind (so the pull request shows only what is proposed).
 */
export async function proposeKnowledge(kb: KnowledgeBase, input: ProposeInput, deps: { env: NodeJS.ProcessEnv }): Promise<ProposeResult> {
  const opts = parseInput(ProposeInput, input, 'proposal');
  const { repo } = kb;
  const remote = await pickRemote(repo, opts.remote);
  const slug = opts.repo ?? githubRepoOf(await remoteUrl(kb, remote));
  if (!slug)
    throw new AxmeError('INVALID_INPUT', `cannot tell which GitHub repository ${remote} is (its URL is not a GitHub URL): pass --repo owner/name`, { remote });
  assertRepoSlug(slug);
  const sources = await sourcesOf(kb, opts.ref);
  if (sources.length > 1 && opts.name !== undefined) {
    throw new AxmeError(
      'INVALID_INPUT',
      `--name names one proposal, and ${sources.length} are pending (${sources.map((x) => x.name).join(', ')}): pass --ref <proposal> with it, or leave --name out (each gets its own branch)`,
    );
  }

  // what sync fetches, plus the reviewed branch: one ls-remote
  const heads = await remoteKnowledgeRefs(repo, remote, [`refs/heads/${REVIEWED_BRANCH}`]);
  const listed = heads.extra.has(`refs/heads/${REVIEWED_BRANCH}`);
  // what the tracking refs hold after the fetch, not the listing: the remote may have moved between the two
  const tracked = await fetchKnowledge(repo, remote, heads, listed ? [reviewedMirror(remote)] : []);
  const remoteMain = await commitAt(repo, tracked.get(trackingRef(remote)));
  let base = await reviewedTip(repo, remote, tracked);
  let createdBase = false;
  if (!base) {
    if (!remoteMain)
      throw new AxmeError(
        'WRONG_STATE',
        `${remote} holds no knowledge yet (no refs/memory/main): share it first with \`axme sync\`, then propose changes to it`,
        { remote },
      );
    await pushOrFail(kb, remote, remoteMain, `refs/heads/${REVIEWED_BRANCH}`, `creating ${REVIEWED_BRANCH} on ${remote}`);
    base = remoteMain;
    createdBase = true;
  } else if (remoteMain && base !== remoteMain && (await isAncestorOf(repo, base, remoteMain))) {
    // behind the shared knowledge (direct writes, adopted proposals): move it up, so a PR shows only its own changes
    // best effort: a protected branch (the host refuses direct pushes) keeps its base, and the PR shows a little more
    const moved = await pushKnowledge(repo, remote, [{ oid: remoteMain, ref: `refs/heads/${REVIEWED_BRANCH}` }]).catch(() => 'rejected' as const);
    if (moved === 'pushed') base = remoteMain;
  }

  const opened: ProposalOpened[] = [];
  const skipped: ProposeResult['skipped'] = [];
  for (const source of sources) {
    const head = (await resolve(repo, source.ref))!;
    if (await isAncestorOf(repo, head, base)) {
      skipped.push({ source: source.ref, reason: `${REVIEWED_BRANCH} on ${remote} already has everything in it` });
      continue;
    }
    const from = await mergeBase(repo, head, base);
    const d = await semanticDiff(kb, from, head);
    const summary = summaryLine(d);
    const title = opts.title ?? (source.name ? `Knowledge from ${source.name}: ${summary}` : `Knowledge: ${summary}`).slice(0, 200);
    const name = validName(opts.name ?? source.name ?? (opts.title ? slugify(opts.title, undefined, { ascii: true }) : `knowledge-${head.slice(0, 12)}`));
    const branch = `${PROPOSAL_BRANCH_PREFIX}${name}`;
    await checkRefFormat(kb, `refs/heads/${branch}`);
    await pushOrFail(
      kb,
      remote,
      head,
      `refs/heads/${branch}`,
      `pushing the proposal to ${branch} (a proposal of that name with other history is there: pass another --name)`,
    );
    const body = [
      renderDiffMarkdown(d, { title: '## Knowledge changes' }),
      '',
      '---',
      `Proposed with \`axme propose\` from \`${source.ref}\` (${head.slice(0, 12)}). Review the files in the diff view; merge (merge commit, squash or rebase) into \`${REVIEWED_BRANCH}\`, and \`axme sync\` on each clone adopts it into refs/memory/main. Check it in CI with \`axme check origin/${branch}\`.`,
    ].join('\n');
    // Octokit is loaded only by the commands that talk to GitHub
    const { openPullRequest } = await import('../../github/pulls.ts');
    const pr = await openPullRequest({ repo: slug, head: branch, base: REVIEWED_BRANCH, title, body, env: deps.env });
    saveProposalRecord(repo, { name, source: source.ref, head, base, remote, repo: slug, pr: pr.number, url: pr.url, created: kb.now().toISOString() });
    opened.push({ name, branch, source: source.ref, head, base, pr: pr.number, url: pr.url, existed: pr.existed, summary });
  }
  if (!opened.length && !skipped.length) throw new AxmeError('NOT_FOUND', 'nothing to propose');
  const lines = [
    ...(createdBase ? [`Created ${REVIEWED_BRANCH} on ${remote} from its refs/memory/main: pull requests go into it.`] : []),
    ...opened.map((o) => `${o.existed ? 'Updated' : 'Opened'} pull request #${o.pr} (${o.branch} -> ${REVIEWED_BRANCH}): ${o.summary}\n${o.url}`),
    ...skipped.map((s) => `Nothing to propose from ${s.source}: ${s.reason}.`),
  ];
  return { remote, repo: slug, opened, skipped, createdBase, text: lines.join('\n') };
}

/** What to propose: the ref asked for; else every pending proposal; else refs/memory/main. */
async function sourcesOf(kb: KnowledgeBase, ref: string | undefined): Promise<Array<{ ref: string; name: string | null }>> {
  const pending = await localProposals(kb.repo);
  if (ref !== undefined) {
    const r = ref.trim();
    if (r === MEMORY_REF || r === kb.ref) return [{ ref: kb.ref, name: null }];
    const name = r.startsWith(PROPOSALS_REF_PREFIX) ? r.slice(PROPOSALS_REF_PREFIX.length) : r;
    if (pending.has(name)) return [{ ref: `${PROPOSALS_REF_PREFIX}${name}`, name }];
    throw new AxmeError(
      'NOT_FOUND',
      `no proposal ${JSON.stringify(r)}: propose ${kb.ref}${pending.size ? ` or one of ${[...pending.keys()].join(', ')}` : ''}`,
      { pending: [...pending.keys()] },
    );
  }
  if (pending.size) return [...pending.keys()].sort().map((name) => ({ ref: `${PROPOSALS_REF_PREFIX}${name}`, name }));
  if (!(await resolve(kb.repo, kb.ref))) throw new AxmeError('NOT_INITIALIZED', `${kb.ref} does not exist yet: run axme init`);
  return [{ ref: kb.ref, name: null }];
}

function validName(name: string): string {
  const n = name.trim();
  if (!isProposalName(n)) {
    throw new AxmeError(
      'INVALID_INPUT',
      `--name ${JSON.stringify(name.slice(0, 100))} cannot name a branch: use letters, digits, dots, dashes and slashes (like caching-decisions)`,
    );
  }
  return n;
}

async function checkRefFormat(kb: KnowledgeBase, ref: string): Promise<void> {
  const r = await kb.repo.git(['check-ref-format', ref], { allowFail: true });
  if (r.code !== 0) throw new AxmeError('INVALID_INPUT', `${ref} is not a valid branch name: pass another --name`);
}

async function remoteUrl(kb: KnowledgeBase, remote: string): Promise<string> {
  const r = await kb.repo.git(['remote', 'get-url', remote], { allowFail: true });
  return r.stdout.toString('utf8').trim();
}

async function pushOrFail(kb: KnowledgeBase, remote: string, oid: string, ref: string, what: string): Promise<void> {
  if ((await pushKnowledge(kb.repo, remote, [{ oid, ref }])) === 'rejected') {
    throw new AxmeError('CONFLICT', `${what}: ${remote} refused the push (${ref} moved or holds other history); nothing else was changed`, { remote, ref });
  }
}
