import { type Invocation, SHELLS } from '../command.ts';
import type { Hit } from './args.ts';

/**
 * The system family's start-up places past the init systems (docs/safety.md, the `system` row):
 * what the session runs at every login, or every package script runs through — macOS's login and
 * logout hooks (`defaults write com.apple.loginwindow LoginHook x`) and login items (`osascript -e
 * '… make login item …'`), the Windows registry's Run keys and Winlogon's shell (`reg add
 * HKCU\…\CurrentVersion\Run`), and the npm clients' settings that name a program every `npm run`
 * starts (`npm config set script-shell /tmp/x`, `node-options --require`, yarn's `yarnPath` outside
 * the project's `.yarn/releases`).
 * Reading them passes (`defaults read`, `reg query`, `npm config get`), and so do a known shell as
 * the script shell (`npm config set script-shell /bin/bash`) and node options that load no code.
 */

const PERSON = "what starts with the session is its owner's to set up, not the task's";

/** macOS's loginwindow keys that name a script run as root at every login or logout. */
const LOGIN_HOOKS = /^(LoginHook|LogoutHook)$/i;

/** `defaults write com.apple.loginwindow LoginHook|LogoutHook …` (also the domain's plist path). */
function defaults(inv: Invocation): Hit | null {
  const a = inv.args.map((w) => w.value).filter((v) => !v.startsWith('-'));
  const write = a.indexOf('write');
  if (write < 0 || !/(^|\/)com\.apple\.loginwindow(\.plist)?$/.test(a[write + 1] ?? '') || !LOGIN_HOOKS.test(a[write + 2] ?? '')) return null;
  return {
    rule: `defaults write loginwindow ${a[write + 2]}`,
    reason: `\`defaults write com.apple.loginwindow ${a[write + 2]}\` makes macOS run a script as root at every login or logout: ${PERSON}`,
  };
}

/** `osascript -e 'tell application "System Events" to make login item …'`: an app opened at every login. */
function osascript(inv: Invocation): Hit | null {
  const code = inv.args.map((w) => w.value).join('\n');
  if (!/\bmake\s+(new\s+)?login\s+item\b/i.test(code)) return null;
  return { rule: 'osascript make login item', reason: `\`osascript\` adds a login item, which macOS opens at every login: ${PERSON}` };
}

/** The registry keys whose values Windows runs at logon (Run, RunOnce, RunServices; the policies' Run), and Winlogon's shell and userinit. */
const RUN_KEYS = /\\(CurrentVersion\\(Run|RunOnce|RunOnceEx|RunServices|RunServicesOnce)|Policies\\Explorer\\Run|CurrentVersion\\Winlogon)\\?$/i;

/** `reg add <a Run key> …` (reg.exe too): a program Windows starts at every logon. */
function reg(inv: Invocation): Hit | null {
  const a = inv.args.map((w) => w.value);
  if (a[0]?.toLowerCase() !== 'add' || !RUN_KEYS.test(a[1] ?? '')) return null;
  return { rule: 'reg add Run', reason: `\`reg add ${a[1]}\` sets a program Windows starts at every logon: ${PERSON}` };
}

/** The npm clients' settings that name what every package script runs through. */
const SCRIPT_RUNNERS = new Set(['script-shell', 'node-options', 'yarnpath']);
/** Node options that load code into every node process (`--require x.js`, `--import`, a loader). */
const LOADS_CODE = /(^|\s)(-r|--require|--import|--loader|--experimental-loader)([\s=]|$)/;

/** `npm|pnpm|yarn config set script-shell|node-options|yarnPath VALUE` (`key=value` too) naming a program or code to load. */
function clientConfig(inv: Invocation): Hit | null {
  const a = inv.args.map((w) => w.value).filter((v) => !/^-/.test(v) || LOADS_CODE.test(v));
  if (a[0] !== 'config' || a[1] !== 'set') return null;
  const [key, value] = a[2]?.includes('=') ? (a[2].split(/=(.*)/s, 2) as [string, string]) : [a[2] ?? '', a.slice(3).join(' ')];
  const k = key.toLowerCase();
  if (!SCRIPT_RUNNERS.has(k) || !value) return null;
  if (
    k === 'script-shell' &&
    SHELLS.has(
      value
        .split(/[\\/]/)
        .pop()!
        .replace(/\.exe$/i, ''),
    )
  )
    return null;
  // the release `yarn set version` keeps in the project (`.yarn/releases/yarn-4.1.0.cjs`)
  if (k === 'yarnpath' && /^(\.\/)?\.yarn\/releases\/[^/]+$/.test(value)) return null;
  if (k === 'node-options' && !LOADS_CODE.test(value)) return null;
  return {
    rule: `${inv.program} config set ${key}`,
    reason: `\`${inv.program} config set ${key}\` makes every package script (\`npm run\`, installs' lifecycle scripts) run through ${value}: ${PERSON}`,
  };
}

export const LOGIN_ITEM_CHECKS: Record<string, (inv: Invocation) => Hit | null> = {
  defaults,
  osascript,
  reg,
  'reg.exe': reg,
  npm: clientConfig,
  pnpm: clientConfig,
  yarn: clientConfig,
};
