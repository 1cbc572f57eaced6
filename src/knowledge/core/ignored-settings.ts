import { CONFIG_PATH } from '../../model/paths.ts';
import type { Diagnostic } from './state.ts';

/**
 * The machine-local settings (model/config.ts, MACHINE_LOCAL_SETTINGS) the shared axme.yaml sets,
 * ignored here: one diagnostic each when the store is read (state.ts), said to a person in one
 * line by the sync that brought them, by `axme status` and by `axme doctor` alike
 * (docs/settings.md, "What arrives through git is data"). Not a problem to fsck: the store reads fine.
 */
export function ignoredSettings(diagnostics: readonly Diagnostic[]): string[] {
  return [...new Set(diagnostics.filter((d) => d.path === CONFIG_PATH && d.setting !== undefined).map((d) => d.setting!))];
}

/** The one line that says which settings are ignored here and what to do about them. */
export function ignoredSettingsLine(settings: readonly string[]): string {
  const them = settings.length === 1 ? 'it' : 'them';
  return `${CONFIG_PATH}: ${settings.join(', ')} ${settings.length === 1 ? 'is' : 'are'} ignored here: ${settings.length === 1 ? 'it chooses' : 'they choose'} where data or credentials go or what runs, which only a machine-local file decides (.git/axme/config.yaml or ~/.config/axme/config.yaml, docs/settings.md); remove ${them} from ${CONFIG_PATH} on the clone that added ${them}, then sync`;
}
