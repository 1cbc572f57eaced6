import { existsSync, readFileSync } from 'node:fs';
import { localSettingsFiles } from '../model/local-settings-files.ts';
import { SANDBOX_DOMAIN_PATTERN, SANDBOX_MODES, SANDBOX_NETWORK, type SandboxMode, type SandboxNetwork } from '../model/sandbox.ts';

/**
 * The sandbox's settings: machine-local only (a pushed `axme.yaml` must not switch a teammate's
 * sandbox off or open a folder to it). Read from this clone's `<git common dir>/axme/config.yaml`,
 * then the user's `$XDG_CONFIG_HOME/axme/config.yaml` (the first that sets a key wins), under
 * `sandbox:`; `AXME_SANDBOX=auto|required|off` in the environment overrides the mode.
 */
export interface SandboxSettings {
  mode: SandboxMode;
  network: SandboxNetwork;
  /** with network `allowlist`: the hosts commands may reach (SANDBOX_DOMAIN_PATTERN), lower case */
  domains: string[];
  /** more folders commands may write */
  writable: string[];
  /** more paths commands may not read */
  hidden: string[];
  /** the machine's servers' sockets (or folders of them) commands may reach: docker's, for one (SANDBOX_SOCKETS_HELP) */
  sockets: string[];
  /** where each setting that is not a default came from, and problems met reading the files */
  sources: Array<{ setting: string; from: string }>;
  problems: string[];
}

/** The two files, clone first (the same files as the other machine-local settings). */
function files(commonDir: string | null, env: NodeJS.ProcessEnv): string[] {
  const { clone, user } = localSettingsFiles(commonDir ?? '', env);
  return [...(commonDir ? [clone] : []), ...(user ? [user] : [])];
}

const domainList = (v: unknown): string[] | null => {
  const list = strings(v)?.map((d) => d.toLowerCase().replace(/\.$/, ''));
  return list && list.every((d) => SANDBOX_DOMAIN_PATTERN.test(d)) ? list : null;
};

const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((x) => typeof x === 'string' && x !== '') ? (v as string[]) : null);

const absolutes = (v: unknown): string[] | null => {
  const list = strings(v);
  return list?.every((p) => p.startsWith('/')) ? list : null;
};

/**
 * Reads YAML. Passed in: the hook bundle stays without a YAML parser (a third of its size), and
 * loads one only when a settings file is there.
 */
export type YamlParser = (text: string) => Promise<unknown>;

/** The sandbox settings in force (defaults: auto, network allowed, nothing more); a domains list without `allowlist` changes nothing. Never throws: a broken file is a problem and is ignored. */
export async function readSandboxSettings(commonDir: string | null, env: NodeJS.ProcessEnv, parseYaml: YamlParser): Promise<SandboxSettings> {
  const out: SandboxSettings = { mode: 'auto', network: 'allow', domains: [], writable: [], hidden: [], sockets: [], sources: [], problems: [] };
  const seen = new Set<string>();
  for (const file of files(commonDir, env)) {
    if (!existsSync(file)) continue;
    let block: Record<string, unknown>;
    try {
      // the YAML reader loads only when a settings file is there: the hook's usual path reads none
      const doc = (await parseYaml(readFileSync(file, 'utf8'))) as Record<string, unknown> | null;
      const s = doc?.sandbox;
      if (s === undefined || s === null) continue;
      if (typeof s !== 'object' || Array.isArray(s)) throw new Error('sandbox: must be a mapping (mode, network, domains, writable, hidden, sockets)');
      block = s as Record<string, unknown>;
    } catch (err) {
      out.problems.push(`${file}: ${(err as Error).message.split('\n')[0]}; its sandbox settings are ignored`);
      continue;
    }
    const take = (key: string, ok: boolean, set: () => void, expected: string) => {
      if (!(key in block) || seen.has(key)) return;
      if (!ok) return void out.problems.push(`${file}: sandbox.${key} must be ${expected}; ignored`);
      set();
      seen.add(key);
      out.sources.push({ setting: `sandbox.${key}`, from: file });
    };
    take('mode', (SANDBOX_MODES as readonly unknown[]).includes(block.mode), () => (out.mode = block.mode as SandboxMode), SANDBOX_MODES.join(', '));
    take(
      'network',
      (SANDBOX_NETWORK as readonly unknown[]).includes(block.network),
      () => (out.network = block.network as SandboxNetwork),
      SANDBOX_NETWORK.join(', '),
    );
    take(
      'domains',
      domainList(block.domains) !== null,
      () => (out.domains = domainList(block.domains)!),
      'a list of host names (registry.npmjs.org, *.github.com: no scheme, port or path)',
    );
    take('writable', strings(block.writable) !== null, () => (out.writable = strings(block.writable)!), 'a list of absolute paths');
    take('hidden', strings(block.hidden) !== null, () => (out.hidden = strings(block.hidden)!), 'a list of paths (~/ for the home folder)');
    take('sockets', absolutes(block.sockets) !== null, () => (out.sockets = absolutes(block.sockets)!), 'a list of absolute paths of sockets or folders');
  }
  if (out.network === 'allowlist' && out.domains.length === 0)
    out.problems.push('sandbox.network is allowlist and sandbox.domains names no host: commands reach no network');
  const fromEnv = env.AXME_SANDBOX;
  if (fromEnv !== undefined && fromEnv !== '') {
    if ((SANDBOX_MODES as readonly string[]).includes(fromEnv)) {
      out.mode = fromEnv as SandboxMode;
      out.sources.push({ setting: 'sandbox.mode', from: 'AXME_SANDBOX' });
    } else out.problems.push(`AXME_SANDBOX=${fromEnv} is not one of ${SANDBOX_MODES.join(', ')}; ignored`);
  }
  return out;
}
