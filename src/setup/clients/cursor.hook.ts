import { PayloadError } from './hook-payload.ts';
import { type ClientHookPart, commonFields, line, obj, oneCall, shellCall, str } from './hook-protocol.ts';

/**
 * Cursor, for the hook process: one event per kind of action, each with its own fields. The
 * conversation is the session (`conversation_id`; `session_id` on the session events); the folder
 * is `cwd` or the first workspace root. Answers: `{"permission":"deny","user_message","agent_message"}`
 * to stop, `{}` to let Cursor's own approval decide; sessionStart takes `additional_context`.
 */
export const cursorHook = {
  id: 'cursor',
  label: 'Cursor',
  guarded: { project: ['.cursor/hooks.json', '.cursor/mcp.json'], home: ['.cursor/hooks.json', '.cursor/mcp.json'] },
  protocol: {
    payload: (o) => {
      const roots = Array.isArray(o.workspace_roots) ? o.workspace_roots.filter((r): r is string => typeof r === 'string' && r !== '') : [];
      const base = { ...commonFields(o), session_id: str(o.conversation_id) ?? str(o.session_id), cwd: str(o.cwd) ?? roots[0] ?? null };
      const event = base.hook_event_name;
      if (event === 'beforeShellExecution' || (event === null && typeof o.command === 'string' && !('tool_name' in o))) {
        const call = shellCall(o.command);
        return oneCall(base, 'Bash', call.input, [call]);
      }
      if (event === 'beforeReadFile') {
        // the file, and any attached with it: each is read
        const attached = (Array.isArray(o.attachments) ? o.attachments : [])
          .map((a) => obj(a))
          .map((a) => str(a.filePath) ?? str(a.file_path) ?? str(a.path))
          .filter((p): p is string => p !== null);
        const files = [str(o.file_path), ...attached].filter((p): p is string => p !== null);
        if (!files.length) throw new PayloadError('the beforeReadFile payload names no file_path');
        return oneCall(
          base,
          'Read',
          { file_path: files[0] },
          files.map((file_path) => ({ tool: 'Read', input: { file_path } })),
        );
      }
      if (event === 'afterFileEdit') return oneCall(base, 'Edit', { file_path: str(o.file_path) ?? '' });
      if (event === 'beforeMCPExecution') return oneCall(base, str(o.tool_name), mcpToolInput(o.tool_input));
      return oneCall(base, null, {});
    },
    deny: (reason) => line({ permission: 'deny', user_message: `axme: ${reason}`, agent_message: reason }),
    ask: (reason) => line({ permission: 'ask', user_message: `axme: ${reason}`, agent_message: reason }),
    pass: line({}),
    context: (text) => line({ additional_context: text, continue: true }),
  },
} as const satisfies ClientHookPart;

/** beforeMCPExecution's tool_input is a JSON string; an object is taken as it is. */
function mcpToolInput(v: unknown): Record<string, unknown> {
  if (typeof v !== 'string') return obj(v);
  try {
    return obj(JSON.parse(v));
  } catch {
    throw new PayloadError('the beforeMCPExecution tool_input is not JSON');
  }
}
