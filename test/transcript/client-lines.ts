// Gemini CLI 0.61.0 and Codex 0.169.0 transcript lines for the tests, shaped like the files the real
// clients wrote when run against a scripted model (`gemini -p … --yolo`, `codex exec …`): the same
// records, fields and order, with shorter texts.

let clock = Date.parse('2026-11-28T14:10:52.000Z');
const stamp = () => new Date((clock += 7)).toISOString();

/** Gemini CLI: `~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`. */
export const gemini = {
  meta: (sessionId: string, kind = 'main') =>
    JSON.stringify({
      sessionId,
      projectHash: 'e0be838f6221da84fad90830f57d6491721838dbabb6356e62d77264e455ba1a',
      startTime: stamp(),
      lastUpdated: stamp(),
      kind,
    }),
  set: (values: Record<string, unknown>) => JSON.stringify({ $set: values }),
  touched: () => JSON.stringify({ $set: { lastUpdated: stamp() } }),
  rewind: (id: string) => JSON.stringify({ $rewindTo: id }),
  /** a user record: `content` is parts (or a string) */
  user: (id: string, content: unknown, extra: Record<string, unknown> = {}) => JSON.stringify(geminiUser(id, content, extra)),
  /** a model record, as first written (text, thoughts) and again with its tool calls */
  model: (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      id,
      timestamp: stamp(),
      type: 'gemini',
      content: '',
      thoughts: [],
      tokens: { input: 10, output: 5, cached: 0, thoughts: 0, tool: 0, total: 15 },
      model: 'gemini-2.5-pro',
      ...extra,
    }),
  /** one entry of a model record's `toolCalls`, completed */
  call: (id: string, name: string, args: Record<string, unknown>, output: string, status = 'success') => ({
    id,
    name,
    args,
    result: [{ functionResponse: { id, name, response: status === 'error' ? { error: output } : { output } } }],
    status,
    timestamp: stamp(),
    resultDisplay: output,
    description: JSON.stringify(args),
    displayName: name,
    renderOutputAsMarkdown: false,
  }),
  /** the functionResponse part a user record sends back to the model */
  response: (id: string, name: string, output: string) => ({ functionResponse: { id, name, response: { output } } }),
};

/** A Gemini user record as an object (for `$set.messages`). */
export function geminiUser(id: string, content: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, timestamp: stamp(), type: 'user', content, ...extra };
}

const SESSION_CONTEXT =
  "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nToday's date is Saturday, November 28, 2026.\nMy operating system is: linux\n</session_context>";

/** A Gemini CLI session: its metadata, the injected context, a prompt, a thought, a shell call that failed, a read, the answer. */
export function geminiSession(sessionId = '7e4620c8-88ca-4346-bc6a-05109a2b6a73'): string[] {
  const shell = gemini.call(
    'run_shell_command_1',
    'run_shell_command',
    { command: 'npm test' },
    'Output: 1 failed: expected 10, got 11\nExit Code: 1',
    'error',
  );
  const read = gemini.call('read_file_2', 'read_file', { file_path: 'src/date.ts' }, 'export const hours = (d) => d.getHours();');
  const thought = { subject: 'Checking', description: 'The test runs in UTC on CI.', timestamp: stamp() };
  return [
    gemini.meta(sessionId),
    gemini.set({ messages: [geminiUser('ctx-1', [{ text: SESSION_CONTEXT }])], lastUpdated: stamp() }),
    gemini.user('u-1', [{ text: 'Fix the failing date test. We always use UTC in this repo.' }]),
    gemini.touched(),
    gemini.model('g-1', { thoughts: [thought] }),
    gemini.touched(),
    gemini.model('g-1', { thoughts: [thought], toolCalls: [shell] }),
    gemini.user('u-2', [gemini.response(shell.id, shell.name, 'Output: 1 failed: expected 10, got 11\nExit Code: 1')]),
    gemini.touched(),
    gemini.model('g-2'),
    gemini.model('g-2', { toolCalls: [read] }),
    gemini.user('u-3', [gemini.response(read.id, read.name, 'export const hours = (d) => d.getHours();')]),
    gemini.touched(),
    gemini.model('g-3', { content: 'Fixed: getUTCHours everywhere. Decided to keep all dates in UTC.' }),
    gemini.touched(),
  ];
}

/** Codex: one `RolloutLine`. */
export function codex(type: string, payload: Record<string, unknown>): string {
  return JSON.stringify({ timestamp: stamp(), ordinal: codexOrdinal++, type, payload });
}
let codexOrdinal = 0;

const TURN = '01a2227d-e08d-78a3-a142-adac3d9c60e1';

/** Codex's items, as its `response_item` payloads. */
export const item = {
  message: (role: string, text: string) => ({
    type: 'message',
    id: `msg_${codexOrdinal}`,
    role,
    content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
    internal_chat_message_metadata_passthrough: { turn_id: TURN },
  }),
  call: (callId: string, name: string, args: Record<string, unknown>) => ({
    type: 'function_call',
    status: 'completed',
    id: `fc_${callId}`,
    name,
    arguments: JSON.stringify(args),
    call_id: callId,
  }),
  output: (callId: string, output: unknown) => ({ type: 'function_call_output', id: `fco_${callId}`, call_id: callId, output }),
  reasoning: (text: string) => ({ type: 'reasoning', id: `rs_${codexOrdinal}`, summary: [{ type: 'summary_text', text }], encrypted_content: 'gAAAA-opaque' }),
};

/** The `session_meta` line Codex writes first. */
export function codexMeta(id = '01a2227d-f58e-7602-91cc-a053c4d10aac', extra: Record<string, unknown> = {}): string {
  codexOrdinal = 0;
  return codex('session_meta', {
    account_scoped: true,
    session_id: id,
    id,
    timestamp: stamp(),
    cwd: '/home/ann/app',
    originator: 'codex_exec',
    cli_version: '0.169.0',
    source: 'exec',
    thread_source: 'user',
    model_provider: 'openai',
    base_instructions: { text: 'You are a coding agent running in the Codex CLI.' },
    ...extra,
  });
}

/** A Codex session: its metadata, instructions and environment, a prompt, a failing command, a patch, reasoning, the answer. */
export function codexSession(id?: string): string[] {
  return [
    codexMeta(id),
    codex('event_msg', { type: 'task_started', turn_id: TURN, started_at: 1795875004, model_context_window: 258400 }),
    codex('response_item', item.message('developer', '<permissions instructions>Filesystem sandboxing: danger-full-access.</permissions instructions>')),
    codex('response_item', item.message('user', '<environment_context>\n  <cwd>/home/ann/app</cwd>\n  <shell>bash</shell>\n</environment_context>')),
    codex('world_state', { full: true, state: { current_date: '2026-11-28' } }),
    codex('turn_context', { turn_id: TURN, cwd: '/home/ann/app', approval_policy: 'never', model: 'gpt-5' }),
    codex('response_item', item.message('user', 'Fix the failing date test. We always use UTC in this repo.')),
    codex('event_msg', {
      type: 'item_completed',
      turn_id: TURN,
      item: { type: 'UserMessage', id: 'x', content: [{ type: 'text', text: 'Fix the failing date test. We always use UTC in this repo.' }] },
    }),
    codex('response_item', item.reasoning('Looking at the date helpers first.')),
    codex('response_item', item.call('call_1', 'exec_command', { cmd: 'npm test' })),
    codex('token_usage_record', { turn_id: TURN, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } }),
    codex(
      'response_item',
      item.output('call_1', 'Chunk ID: 0477e0\nWall time: 0.4 seconds\nProcess exited with code 1\nOutput:\n1 failed: expected 10, got 11\n'),
    ),
    codex('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } } }),
    codex('response_item', {
      type: 'custom_tool_call',
      status: 'completed',
      id: 'ctc_2',
      call_id: 'call_2',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Update File: src/date.ts\n-getHours()\n+getUTCHours()\n*** End Patch\n',
    }),
    codex('response_item', { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Success. Updated the following files:\nM src/date.ts' }),
    codex('response_item', item.message('assistant', 'Fixed: getUTCHours everywhere. Decided to keep all dates in UTC.')),
    codex('event_msg', { type: 'task_complete', turn_id: TURN, last_agent_message: 'Fixed.', duration_ms: 269 }),
  ];
}
