import { AxmeError } from '../../model/errors.ts';
import { withoutRepoEnv } from '../../store/git.ts';
import { closeKnowledgeBase, type KnowledgeBase, openKnowledgeBase } from '../core/kb.ts';
import { detectWorkspace, findMember, type WorkspaceMember } from './detect-workspace.ts';

/**
 * Writes where `scope` says (docs/workspaces.md): no scope, or one holding "all" -> the store the
 * session started in (`kb`); `[repo, ...]` inside a workspace -> each named member repository's
 * store, by its folder relative to the workspace (or its folder name when unique); the first
 * target's result is returned, the others' in its `others`. Every name
 * and every target store is checked before anything is written: an unknown name is
 * INVALID_INPUT listing the members, a member without a store NOT_INITIALIZED. Outside a
 * workspace, scope is only recorded on the item.
 */
export async function routeByScope<R extends { others?: R[] | undefined }>(
  kb: KnowledgeBase,
  scope: string[] | undefined,
  write: (target: KnowledgeBase) => Promise<R>,
): Promise<R> {
  const link = kb.workspace;
  if (!link || !scope?.length || scope.includes('all')) return write(kb);
  const members = detectWorkspace({ dir: link.root, force: true }).members;
  const targets: WorkspaceMember[] = [];
  for (const name of scope) {
    const m = findMember(members, name);
    if (!m) {
      const list = members.length ? members.map((x) => x.name).join(', ') : '(none found)';
      throw new AxmeError('INVALID_INPUT', `scope names "${name}", which is not a repository of the workspace ${link.root}: use "all" or some of ${list}`, {
        scope: name,
        members: members.map((x) => x.name),
      });
    }
    if (!targets.includes(m)) targets.push(m);
  }
  const opened: KnowledgeBase[] = [];
  try {
    const kbs: KnowledgeBase[] = [];
    for (const m of targets) {
      if (m.name === link.member) {
        kbs.push(kb);
        continue;
      }
      const t = await openKnowledgeBase({ cwd: m.path, env: withoutRepoEnv(kb.repo.env), now: kb.now, actor: kb.actor, session: kb.session, backend: 'cli' });
      t.label = m.path;
      opened.push(t);
      if (!(await t.repo.backend.resolveRef(t.ref))) {
        throw new AxmeError(
          'NOT_INITIALIZED',
          `the repository ${m.name} (${m.path}) has no axme knowledge yet: run \`axme init\` there, or \`axme init --workspace\` in ${link.root}; nothing was written`,
          { member: m.name },
        );
      }
      kbs.push(t);
    }
    const results: R[] = [];
    for (const t of kbs) results.push(await write(t));
    const [first, ...rest] = results;
    return rest.length ? { ...first!, others: rest } : first!;
  } finally {
    await Promise.all(opened.map(closeKnowledgeBase));
  }
}
