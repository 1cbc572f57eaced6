import type { AxmeSelf } from '../../model/axme-self.ts';
import { readAutoSync, startAutoSync } from '../sync/auto-sync.ts';

/** Starts the background sync of a session's start or end when the mode its start found says so (`self`, the hook's axme, runs it). */
export function startSessionSync(self: AxmeSelf | null, commonDir: string, cwd: string, env: NodeJS.ProcessEnv, reason: 'session-start' | 'session-end'): void {
  const mode = readAutoSync(commonDir)?.mode;
  if (mode !== undefined && mode !== 'off' && self) startAutoSync({ self, commonDir, cwd, env, reason });
}
