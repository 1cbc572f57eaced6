import { formerRemoteKey } from '../model/former-remote.ts';
import { configOperands, writtenSetting } from './git-settings.ts';
import { UNKNOWN } from './shell.ts';
import { type TransportFinding, transportFinding, urlHost } from './transport-settings.ts';

/**
 * `git remote set-url [--push] NAME URL`, `git config remote.NAME.url URL`, or `git remote add
 * NAME URL` of a name that has a URL now (`git remote remove origin && git remote add origin …`),
 * that moves a remote to another host than the one it has (`remoteUrl`: the hook reads the
 * repository's config): every later fetch, pull and push of it goes there, as with
 * `url.<other host>.insteadOf`. The same host another way (https to ssh, a token in the URL), a
 * remote it cannot read, a new name (`git remote add upstream …`) and a URL only the shell knows pass.
 * A name axme removed for an agent in the sandbox (or renamed away, or unset the URL of) is no new
 * name: the URL it had is kept in the repository's config (`gitSetting`, model/former-remote.ts),
 * and the name added again on its own line is judged against it.
 */
export function movedRemote(
  call: { sub: string; args: string[]; cwd: string; gitDir: string | null },
  remoteUrl: ((dir: string, gitDir: string | null, name: string) => string | null) | undefined,
  gitSetting?: ((dir: string, gitDir: string | null, key: string) => string | null) | undefined,
): TransportFinding | null {
  let name: string | undefined;
  let url: string | undefined;
  if (call.sub === 'remote') {
    const at = call.args.findIndex((v) => !v.startsWith('-'));
    const verb = call.args[at];
    if ((verb !== 'set-url' && verb !== 'add') || call.args.includes('--delete')) return null;
    // `git remote add -t BRANCH -m HEAD NAME URL`: those options take the next word
    [name, url] = call.args.slice(at + 1).filter((v, i, rest) => !v.startsWith('-') && !(verb === 'add' && /^-[tm]$/.test(rest[i - 1] ?? '')));
  } else {
    const written = writtenSetting(call);
    const key = written && /^remote\.(.+)\.url$/.exec(written[0]);
    if (!key) return null;
    // the key was lower-cased: the name as typed
    name = configOperands(call.args)
      .map((i) => call.args[i]!)
      .find((v) => v.toLowerCase() === written![0])
      ?.slice(7, -4);
    url = written![1];
  }
  if (!name || !url || url.includes(UNKNOWN) || name.includes(UNKNOWN)) return null;
  const old = remoteUrl?.(call.cwd, call.gitDir, name) ?? gitSetting?.(call.cwd, call.gitDir, formerRemoteKey(name));
  const [from, to] = [old ? urlHost(old) : null, urlHost(url)];
  if (!from || !to || from === to) return null;
  return transportFinding(
    'network.redirect',
    `\`${call.sub === 'remote' ? `git remote ${call.args.find((v) => !v.startsWith('-'))} ${name}` : `git config remote.${name}.url`} ${url}\` moves the remote ${name} from ${from} to ${to}`,
  );
}
