import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripJsonComments } from '../../scan/files.ts';
import { lastPromptOf } from '../../transcript/gemini-tokens.ts';
import type { HookPayload } from './hook-payload.ts';

/** Gemini CLI's share of the model's window past which it compresses (`model.compressionThreshold` unset). */
const DEFAULT_THRESHOLD = 0.5;
/** The windows Gemini CLI 0.61 compresses against (`tokenLimit`): its Gemma 4 models', every other model's. */
const GEMMA_4_WINDOW = 256_000;
const WINDOW = 1_048_576;

/**
 * Whether Gemini CLI's `PreCompress` means it compresses the history now. Gemini CLI 0.61 fires it
 * each time it considers compressing — before every model call — and only then compares the last
 * prompt's tokens with its threshold (`ChatCompressionService.compress`): most events compress
 * nothing. A manual `/compress` does; an automatic one only when the session file's newest model
 * message (transcript/gemini-tokens.ts) says the last prompt reached `compressionThreshold` (the
 * lowest of 0.5, Gemini's default, and the project's and the user's settings) of the model's window (the smaller
 * window when the model is not named). When the file cannot tell, it is taken to compress: a
 * compaction missed loses the checkpoint, one marked too often only gives items again.
 */
export function geminiCompressesNow(p: HookPayload, env: NodeJS.ProcessEnv, cwd: string): boolean {
  if (p.trigger !== 'auto' || !p.transcript_path) return true;
  const last = lastPromptOf(p.transcript_path);
  if (!last) return true;
  const window = last.model === null || last.model.startsWith('gemma-4') ? GEMMA_4_WINDOW : WINDOW;
  return last.tokens >= compressionThreshold(env, cwd) * window;
}

/** The lowest `model.compressionThreshold` of the project's and the user's Gemini settings (0 and unset count as unset, as in Gemini). */
function compressionThreshold(env: NodeJS.ProcessEnv, cwd: string): number {
  const files = [join(cwd, '.gemini', 'settings.json')];
  if (env.HOME) files.push(join(env.HOME, '.gemini', 'settings.json'));
  let threshold = DEFAULT_THRESHOLD;
  for (const file of files) {
    let settings: unknown;
    try {
      settings = JSON.parse(stripJsonComments(readFileSync(file, 'utf8')));
    } catch {
      continue;
    }
    const model = (settings as { model?: { compressionThreshold?: unknown } } | null)?.model;
    const v = model?.compressionThreshold;
    if (typeof v === 'number' && v > 0 && v < threshold) threshold = v;
  }
  return threshold;
}
