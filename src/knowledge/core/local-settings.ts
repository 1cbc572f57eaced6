import { existsSync, readFileSync } from 'node:fs';
import { type AuditorConfig, LocalSettings, MACHINE_LOCAL_SETTINGS, type MachineLocalSetting, type StoreConfig } from '../../model/config.ts';
import { parseYaml } from '../../model/frontmatter.ts';
import { describeIssues } from '../../model/kind.ts';
import { localSettingsFiles } from '../../model/local-settings-files.ts';

/**
 * The machine-local settings: what chooses where data or credentials go or what runs
 * (MACHINE_LOCAL_SETTINGS), which the shared `axme.yaml` may not set. Two files, the first that
 * sets a key wins:
 *
 * 1. this clone's `<git common dir>/axme/config.yaml` (never committed, never synced; the agent
 *    cannot write there);
 * 2. the user's `$XDG_CONFIG_HOME/axme/config.yaml` (default `~/.config/axme/config.yaml`).
 */
export { type LocalSettingsFiles, localSettingsFiles } from '../../model/local-settings-files.ts';

/** One effective setting and where it came from. */
export interface SettingSource {
  setting: string;
  value: unknown;
  /** the file, or `axme.yaml` (the shared store), or `default` */
  from: string;
}

export interface EffectiveSettings {
  /** the auditor block: the shared file's harmless keys (model, retries, …) under the machine-local ones */
  auditor: AuditorConfig | undefined;
  /** the embeddings endpoint: machine-local only */
  embeddings: NonNullable<NonNullable<StoreConfig['search']>['embeddings']> | null;
  /** each setting that is set, and its file */
  sources: SettingSource[];
  /** files that could not be read (each said once; the file is then ignored) */
  problems: string[];
}

/** Reads one settings file; null when it is absent, a problem when it is broken. */
function readFile(path: string, problems: string[]): LocalSettings | null {
  if (!existsSync(path)) return null;
  try {
    const r = LocalSettings.safeParse(parseYaml(readFileSync(path, 'utf8')) ?? {});
    if (r.success) return r.data;
    problems.push(`${path}: ${describeIssues(r.error)}; its settings are ignored`);
  } catch (err) {
    problems.push(`${path}: not valid YAML (${(err as Error).message.split('\n')[0]}); its settings are ignored`);
  }
  return null;
}

/**
 * The settings in force on this machine: `shared` (the store's `axme.yaml`, already without its
 * machine-local keys) under the user's file, under this clone's file.
 */
export function effectiveSettings(shared: StoreConfig | null, commonDir: string, env: NodeJS.ProcessEnv): EffectiveSettings {
  const files = localSettingsFiles(commonDir, env);
  const problems: string[] = [];
  const layers: Array<{ from: string; settings: LocalSettings }> = [];
  if (shared) layers.push({ from: 'axme.yaml', settings: { auditor: shared.auditor, search: shared.search } });
  if (files.user) {
    const user = readFile(files.user, problems);
    if (user) layers.push({ from: files.user, settings: user });
  }
  const clone = readFile(files.clone, problems);
  if (clone) layers.push({ from: files.clone, settings: clone });
  const sources = new Map<string, SettingSource>();
  let auditor: AuditorConfig | undefined;
  let embeddings: EffectiveSettings['embeddings'] = null;
  for (const { from, settings } of layers) {
    for (const [key, value] of Object.entries(settings.auditor ?? {})) {
      if (value === undefined) continue;
      auditor = { ...auditor, [key]: value };
      sources.set(`auditor.${key}`, { setting: `auditor.${key}`, value, from });
    }
    const e = settings.search?.embeddings;
    if (e) {
      embeddings = e;
      sources.set('search.embeddings', {
        setting: 'search.embeddings',
        value: { url: e.url, model: e.model, ...(e.api_key_env ? { api_key_env: e.api_key_env } : {}) },
        from,
      });
    }
  }
  return { auditor, embeddings, sources: [...sources.values()], problems };
}

/** Whether a setting may only come from a machine-local file. */
export function isMachineLocal(setting: string): setting is MachineLocalSetting {
  return (MACHINE_LOCAL_SETTINGS as readonly string[]).includes(setting);
}
