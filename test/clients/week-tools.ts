import { OPERATIONS } from '../../src/operations/index.ts';
import type { WeekSeed } from './week-seed.ts';

/**
 * One call of every axme MCP tool (the operations table's `mcp` tools) on the week's store, for
 * the real clients: each result must reach the model as text it can read — an answer in words,
 * not a JSON document — errors included. A tool the table adds without a call here fails the test
 * that uses it (`everyToolCall` throws), so none is left unchecked.
 */

/** The arguments of each tool's call, from the seed (ids of the cache module's items: no other check reads them). */
function argsOf(seed: WeekSeed): Record<string, Record<string, unknown>> {
  const cache = seed.byModule.get('cache')!;
  return {
    axme_save_decision: { title: 'Cache keys carry the schema version', decision: 'A key holds the schema version it was written with.' },
    axme_amend_decision: { id: cache.decisions[3], reasoning: 'The team confirmed it in review.' },
    axme_revoke_decision: { id: cache.decisions[4], reason: 'Audit lines for eviction were dropped.' },
    axme_save_memory: { type: 'feedback', title: 'Small pull requests', description: 'Keep pull requests under 300 lines.' },
    axme_update_memory: { slug: cache.memories[0], description: 'In cache, keep redis pitfalls written down.' },
    axme_archive_memory: { slug: cache.memories[1] },
    axme_backlog_add: { title: 'Cache: warm the redis keys at start' },
    axme_backlog_update: { id: cache.backlog[0], status: 'done' },
    axme_ask_question: { question: 'Should the cache survive a deploy?' },
    axme_answer_question: { question_id: cache.questions[0], answer: 'No, a day is enough.' },
    axme_update_question: { question_id: cache.questions[1], status: 'archived' },
    axme_oracle: {},
    axme_decisions: {},
    axme_memories: {},
    axme_get_decision: { id_or_slug: cache.decisions[0] },
    axme_get_memory: { slug: cache.memories[2] },
    axme_backlog: {},
    axme_list_open_questions: {},
    axme_safety: {},
    axme_update_safety: { rule_type: 'bash_deny', value: 'helm uninstall', action: 'add' },
    axme_oracle_scan: {},
    axme_status: {},
    axme_search_kb: { query: 'redis eviction' },
    axme_history: { id_or_slug: cache.decisions[0] },
    axme_worklog: {},
    axme_log: {},
    axme_diff: {},
    axme_check: {},
    // the world's remote is no GitHub repository: an error, in words
    axme_propose: {},
    axme_begin_close: {},
    axme_verify: {},
    axme_reconfirm: { id: cache.anchored[0] },
    axme_context: {},
    axme_workspace: {},
    // last: it closes the session
    axme_finalize_close: { summary: 'Checked every tool.' },
  };
}

/** Every MCP tool of the operations table, each with its call's arguments, in the table's order but the close last. */
export function everyToolCall(seed: WeekSeed): Array<{ tool: string; args: Record<string, unknown> }> {
  const args = argsOf(seed);
  const tools = OPERATIONS.flatMap((op) => (op.mcp ? [op.mcp.tool] : []));
  const missing = tools.filter((t) => !(t in args));
  if (missing.length) throw new Error(`no call for the MCP tools ${missing.join(', ')}: add one to week-tools.ts`);
  const ordered = [...tools.filter((t) => t !== 'axme_finalize_close'), 'axme_finalize_close'];
  return ordered.map((tool) => ({ tool, args: args[tool]! }));
}

/** Why `text` is not an answer a model reads as words (empty, or a JSON document), or null when it is. */
export function notReadable(text: string): string | null {
  const t = text.trim();
  if (!t) return 'empty';
  if (/^[{[]/.test(t)) {
    try {
      JSON.parse(t);
      return 'a JSON document';
    } catch {
      // text that starts with a bracket
    }
  }
  return null;
}
