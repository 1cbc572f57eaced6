import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripJsonComments } from '../../scan/files.ts';
import { lastPromptOf } from '../../transcript/gemini-tokens.ts';
import type { HookPayload } from './hook-payload.ts';

/** Gemini CLI's settings file, in the project and in its home folder. */
export const GEMINI_SETTINGS = '.gemini/settings.json';
/** The share of the model's window past which Gemini CLI compresses when no settings file sets `model.compressionThreshold`. */
const DEFAULT_THRESHOLD = 0.5;
/** The windows Gemini CLI 0.61 compresses against (its `tokenLimit`; check it again at an upgrade): its two Gemma 4 models', every other model's. */
const GEMMA_4_WINDOW = 256_000;
const WINDOW = 1_048_576;

/**
 * Whether Gemini CLI's `PreCompress` means it compresses the history now. Gemini CLI 0.61 fires it
 * each time it considers compressing — before every model call — and only then compares the last
 * prompt's tokens with its threshold (`ChatCompressionService.compress`): most events compress
 * nothing. A manual `/compress` does; an automatic one only when the session file's newest model
 * message (transcript/gemini-tokens.ts) says the last prompt reached the threshold (`model.
 * compressionThreshold` of the settings Gemini reads, 0.5 unset) of the model's window (the
 * smaller window when the model is not named). When the file cannot tell, it is taken to
 * compress: a compaction missed loses the checkpoint, one marked too often only gives items again.
 */
export function geminiCompressesNow(p: HookPayload, at: { env: NodeJS.ProcessEnv; cwd: string; home: string }): boolean {
  if (p.trigger !== 'auto' || !p.transcript_path) return true;
  const last = lastPromptOf(p.transcript_path);
  if (!last) return true;
  const window = last.model === null || last.model.startsWith('gemma-4') ? GEMMA_4_WINDOW : WINDOW;
  return last.tokens >= compressionThreshold(at.env, at.cwd, at.env.GEMINI_CLI_HOME || at.home) * window;
}

/**
 * `model.compressionThreshold` as Gemini CLI merges its settings: the system file's over the
 * project's over the user's (under `home`: `$GEMINI_CLI_HOME`, else the home folder); 0 and unset count as
 * unset, as in Gemini. A threshold Google sets remotely (an experiment flag Gemini reads when no
 * file sets one) is not visible here: 0.5 stands for it.
 */
function compressionThreshold(env: NodeJS.ProcessEnv, cwd: string, home: string): number {
  for (const file of [systemSettingsFile(env), join(cwd, GEMINI_SETTINGS), join(home, GEMINI_SETTINGS)]) {
    let settings: unknown;
    try {
      settings = JSON.parse(stripJsonComments(readFileSync(file, 'utf8')));
    } catch {
      continue;
    }
    const v = (settings as { model?: { compressionThreshold?: unknown } } | null)?.model?.compressionThreshold;
    if (typeof v === 'number' && v > 0) return v;
  }
  return DEFAULT_THRESHOLD;
}

/** Gemini CLI's system-wide settings file (`$GEMINI_CLI_SYSTEM_SETTINGS_PATH`, else where Gemini looks on this platform). */
function systemSettingsFile(env: NodeJS.ProcessEnv): string {
  if (env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  if (process.platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}
