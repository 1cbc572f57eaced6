import { join } from 'node:path';
import { BWRAP_INSTALL } from '../model/sandbox.ts';
import { cachedProbe, findBwrap } from './bwrap.ts';
import type { SandboxSettings } from './settings.ts';

/** Whether shell commands run in the kernel sandbox here, and if not why and what to do. */
export type SandboxState =
  | { on: true; bwrap: string }
  | {
      on: false;
      /** `sandbox.mode: required`: shell commands are denied while the sandbox cannot start */
      required: boolean;
      /** `off` by choice, or none to be had here */
      chosen: boolean;
      why: string;
      /** what makes it start, when something can */
      fix: string | null;
    };

/** The file remembering whether this machine's bubblewrap can start a sandbox (machine-local). */
export const probeFile = (commonDir: string | null): string | null => (commonDir ? join(commonDir, 'axme', 'sandbox-probe.json') : null);

/** The sandbox state for these settings on this platform. */
export function sandboxState(
  settings: SandboxSettings,
  env: NodeJS.ProcessEnv,
  commonDir: string | null,
  platform: NodeJS.Platform = process.platform,
): SandboxState {
  const required = settings.mode === 'required';
  if (settings.mode === 'off')
    return {
      on: false,
      required: false,
      chosen: true,
      why: 'sandbox.mode is off: the parser alone guards',
      fix: 'remove sandbox.mode: off (or AXME_SANDBOX=off) to turn it on',
    };
  if (platform !== 'linux') {
    return {
      on: false,
      required,
      chosen: false,
      why: `axme has no kernel sandbox for ${platform} yet (Linux: bubblewrap): the parser alone guards`,
      fix: null,
    };
  }
  const bwrap = findBwrap(env);
  if (!bwrap) return { on: false, required, chosen: false, why: 'bubblewrap (bwrap) is not installed: the parser alone guards', fix: BWRAP_INSTALL };
  const problem = cachedProbe(bwrap, probeFile(commonDir));
  if (problem) {
    return {
      on: false,
      required,
      chosen: false,
      why: `bubblewrap cannot start a sandbox here (${problem}): the parser alone guards`,
      fix: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later an AppArmor profile for bwrap); inside a container, run it with user namespaces allowed',
    };
  }
  return { on: true, bwrap };
}

/** The deny reason of a shell command when the sandbox is required but cannot start. */
export function requiredButOff(state: Extract<SandboxState, { on: false }>): string {
  return `axme's sandbox is required here (sandbox.mode: required) but ${state.why.replace(/: the parser alone guards$/, '')}${state.fix ? `; fix: ${state.fix}` : ''}. Shell commands are denied until it can start.`;
}
