import { ignoredSettings, ignoredSettingsLine } from '../knowledge/core/ignored-settings.ts';
import { openKnowledgeBase } from '../knowledge/core/kb.ts';
import { effectiveSettings } from '../knowledge/core/local-settings.ts';
import { readState } from '../knowledge/core/state.ts';
import { CONFIG_PATH } from '../model/paths.ts';
import type { DoctorCheck } from './clients/adapter.ts';

/**
 * Doctor's `settings` check: each machine-local setting in force and the file it came from, a
 * local settings file that cannot be read (problem), and the keys the shared axme.yaml sets that
 * only a machine-local file may (ignored: a warning line).
 */
export async function settingsCheck(dir: string, env: NodeJS.ProcessEnv): Promise<DoctorCheck> {
  const kb = await openKnowledgeBase({ cwd: dir, env, backend: 'cli' });
  try {
    const tip = await kb.repo.backend.resolveRef(kb.ref);
    const state = tip ? await readState(kb) : null;
    const { sources, problems } = effectiveSettings(state?.config ?? null, kb.repo.commonDir, env);
    const local = sources.filter((s) => s.from !== CONFIG_PATH).map((s) => `${s.setting} = ${JSON.stringify(s.value)} (${s.from})`);
    const set = ignoredSettings(state?.diagnostics ?? []);
    const ignored = set.length ? [`warning: ${ignoredSettingsLine(set)}`] : [];
    const lines = [local.length ? `machine-local: ${local.join('; ')}` : 'no machine-local setting: the defaults apply', ...ignored];
    if (problems.length)
      return {
        name: 'settings',
        status: 'problem',
        detail: [...problems, ...lines].join('; '),
        fix: 'fix the settings file it names (docs/settings.md), or move it away',
      };
    return { name: 'settings', status: 'ok', detail: lines.join('; ') };
  } finally {
    await kb.repo.close();
  }
}
