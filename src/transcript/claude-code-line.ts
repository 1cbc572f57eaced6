import { type LineAt, parseObjectLine, skipLine } from './jsonl-stream.ts';
import type { TranscriptBlock, TranscriptEntry, TranscriptStats } from './types.ts';
import { isObject, str } from './values.ts';

/**
 * One (non-blank) line of a Claude Code session transcript (`~/.claude/projects/<key>/<session>.jsonl`)
 * as an entry, or null when it is skipped; the reason is counted in `stats`. Anthropic publishes no
 * schema: the shapes are those of docs/auditor.md, and anything else is tolerated, never thrown.
 */
export function claudeCodeLine(text: string, at: LineAt, stats: TranscriptStats): TranscriptEntry | null {
  const line = parseObjectLine(text, stats);
  if (!line) return null;
  const type = typeof line.type === 'string' ? line.type : '(none)';
  if (type !== 'user' && type !== 'assistant' && type !== 'system') {
    skipLine(stats, type);
    return null;
  }
  const blocks = type === 'system' ? systemBlocks(line) : messageBlocks(line, stats);
  if (!blocks) {
    stats.malformed++;
    return null;
  }
  const subtype = type === 'system' && typeof line.subtype === 'string' ? line.subtype : null;
  const compactMetadata = isObject(line.compactMetadata) ? line.compactMetadata : null;
  return {
    role: type,
    uuid: str(line.uuid),
    parent_uuid: str(line.parentUuid),
    timestamp: str(line.timestamp),
    sidechain: line.isSidechain === true,
    meta: line.isMeta === true,
    subtype,
    compact_boundary: subtype === 'compact_boundary',
    compact_trigger: subtype === 'compact_boundary' ? str(compactMetadata?.trigger) : null,
    compact_summary: type === 'user' && line.isCompactSummary === true,
    blocks,
    offset: at.offset,
    end_offset: at.end_offset,
  };
}

/** A user or assistant line's `message.content`: a string (a plain prompt) or an array of blocks. */
function messageBlocks(line: Record<string, unknown>, stats: TranscriptStats): TranscriptBlock[] | null {
  const message = line.message;
  if (!isObject(message)) return null;
  const content = message.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return null;
  const blocks: TranscriptBlock[] = [];
  for (const raw of content) {
    const block = contentBlock(raw);
    if (block) blocks.push(block);
    else stats.skipped_blocks++;
  }
  return blocks;
}

function contentBlock(raw: unknown): TranscriptBlock | null {
  if (!isObject(raw)) return null;
  switch (raw.type) {
    case 'text':
      return typeof raw.text === 'string' ? { type: 'text', text: raw.text } : null;
    case 'thinking':
      return typeof raw.thinking === 'string' ? { type: 'thinking', text: raw.thinking } : null;
    case 'tool_use':
      return typeof raw.name === 'string' ? { type: 'tool_use', id: str(raw.id) ?? '', name: raw.name, input: raw.input ?? {} } : null;
    case 'tool_result':
      return { type: 'tool_result', tool_use_id: str(raw.tool_use_id) ?? '', content: resultText(raw.content), is_error: raw.is_error === true };
    case 'image':
      return { type: 'image', media_type: isObject(raw.source) ? str(raw.source.media_type) : null };
    default:
      return null;
  }
}

/** A tool result's content: a string, or text and image blocks. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => (!isObject(c) ? '' : c.type === 'text' && typeof c.text === 'string' ? c.text : c.type === 'image' ? '[image]' : ''))
    .filter(Boolean)
    .join('\n');
}

/** A system line's text (`content`), when it has one. */
function systemBlocks(line: Record<string, unknown>): TranscriptBlock[] {
  return typeof line.content === 'string' && line.content ? [{ type: 'text', text: line.content }] : [];
}
