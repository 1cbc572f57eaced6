import { createHash } from 'node:crypto';
import { nextId } from '../../../model/ids.ts';
import { encodeItem, type KindSpec } from '../../../model/kind.ts';
import { SPECS } from '../../../model/paths.ts';
import { Question } from '../../../model/question.ts';
import { SLUG_MAX, slugify, uniqueSlug } from '../../../model/slug.ts';
import type { KnowledgeBase } from '../../core/kb.ts';
import type { MergeConflict, MergeInput, MergePlan } from './merge-plan.ts';
import { mergedItems } from './merged-items.ts';

/** One open question per conflict, so a person settles what the merge could not. */
export async function openConflictQuestions(kb: KnowledgeBase, input: MergeInput, plan: MergePlan): Promise<void> {
  if (!plan.conflicts.length) return;
  const spec = SPECS.question as unknown as KindSpec<Question>;
  const used = (await mergedItems(kb, input, plan, 'question')).flatMap((e) => [e.item.id, ...(e.item.aliases ?? [])]);
  // dated by the later of the two commits: both clones write the same bytes
  const [a, b] = await Promise.all([kb.repo.backend.readCommit(input.ours.commit), kb.repo.backend.readCommit(input.theirs.commit)]);
  const stamp = new Date(Math.max(a.committer.timestamp, b.committer.timestamp) * 1000).toISOString();
  const taken = new Set<string>();
  const pathOf = (slug: string) => `${spec.dir}/${slug}.md`;
  for (const c of [...plan.conflicts].sort((p, q) => (p.path < q.path ? -1 : 1))) {
    let slug = questionSlug(c);
    // another conflict of this merge got this name already (a hash collision): the next free one
    if (taken.has(pathOf(slug))) slug = uniqueSlug(slug, (s) => taken.has(pathOf(s)) || input.ours.files.has(pathOf(s)));
    const path = pathOf(slug);
    taken.add(path);
    c.question = path;
    // asked already (this pair was merged before): the question stands as it is
    if (input.ours.files.has(path) && !plan.changes.has(path)) continue;
    const id = nextId(spec.idPrefix!, used);
    used.push(id);
    const label = c.id ? `${c.id} "${c.title}"` : c.path;
    // a one-line value both sides set (a title, a type): both are named in the question
    const values = plan.settled
      .filter(
        (f) => f.path === c.path && f.rule === 'asked' && f.sides.every((s) => typeof s.value === 'string' && !s.value.includes('\n') && s.value.length <= 200),
      )
      .map((f) => `${f.field}: ${JSON.stringify(f.value)} (kept) or ${JSON.stringify(f.sides.find((s) => s.value !== f.value)?.value)}`);
    const q = Question.parse({
      slug,
      id,
      question: `Two clones changed ${label} in ways that do not combine (${c.fields.join(', ')}${values.length ? `; ${values.join('; ')}` : ''}). ${c.note ?? 'Which version is right?'}`,
      context: `Sync kept the version of commit ${c.kept} in place (${c.path}). The other version is in history: \`git show ${c.other}:${c.path}\`. Edit the item to the right text, then answer this question.`,
      status: 'open',
      source: 'sync',
      created: stamp,
      updated: stamp,
    });
    plan.changes.set(path, Buffer.from(encodeItem(spec, q), 'utf8'));
    plan.questions.push(path);
  }
}

/**
 * The slug of the question about a conflict: `merge-conflict-<path>-<commit>`, where <commit>
 * is the first 8 digits of the version not kept. A path too long for a slug is cut and told
 * apart from others with its beginning by a short hash of the whole path, so every conflict of
 * one merge gets its own question.
 */
function questionSlug(c: MergeConflict): string {
  const tail = `-${c.other.slice(0, 8)}`;
  const head = slugify(`merge conflict ${c.path.replace(/\.md$/, '')}`);
  if (head.length + tail.length <= SLUG_MAX) return head + tail;
  const hash = `-${createHash('sha1').update(c.path).digest('hex').slice(0, 6)}`;
  return head.slice(0, SLUG_MAX - tail.length - hash.length).replace(/-+$/, '') + hash + tail;
}
