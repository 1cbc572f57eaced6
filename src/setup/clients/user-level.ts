import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import type { AxmeSelf } from '../../model/axme-self.ts';
import { AxmeError } from '../../model/errors.ts';
import { slugify } from '../../model/slug.ts';
import { isObject, parseJsonObject } from '../json-file.ts';
import type { UserFile, UserPlace } from './adapter.ts';
import { type JsonServersFormat, mergeJsonServer, removeJsonServer, serversOf } from './json-mcp.ts';

/**
 * The clients whose MCP servers live in a file of the user, not of the project (`--user`):
 * Windsurf and Claude Desktop (their adapters' `user`: where the file is on each OS). Such a file
 * serves every project, so the entry names this one — `axme-<slug of the project folder>` — and
 * starts this machine's axme in it by absolute paths (`<node> <axme> -C <project> serve`: Claude
 * Desktop starts servers without a shell or a project folder). Where the file is depends on the
 * OS, given (with the environment) by the caller, so every OS is tested on any one.
 */

/** Where a user-level client's file is, and what the user-level entry needs. */
export interface UserContext extends UserPlace {
  /** this axme: the node and the script running now (needed to write, not to remove) */
  self?: AxmeSelf;
}

/** A user-level client: its file, and its name for people (`label`). */
export type UserClient = { label: string; user: UserFile };

/** The environment variable `name` of `ctx`, which the file of `label`'s client is found from: CONFIG when it is unset. */
export function userVariable(ctx: UserPlace, name: string, label: string): string {
  const v = ctx.env[name];
  if (!v)
    throw new AxmeError(
      'CONFIG',
      `${name} is not set: axme cannot tell where ${label}'s configuration is; set it, then run the command again; nothing was changed`,
      { variable: name },
    );
  return v;
}

/** The server's name in a user-level file: `axme-<slug of the project folder>`. */
export function userServerName(root: string): string {
  return `axme-${slugify(basename(root), 'project', { ascii: true })}`;
}

/** The entry: this node runs this axme in the project (real absolute paths). */
export function userServerEntry(root: string, self: AxmeSelf): { command: string; args: string[] } {
  return { command: real(self.execPath), args: [real(self.script), '-C', root, 'serve'] };
}

/**
 * The file's text with this project's server; CONFIG when a server of that name already starts
 * axme in another project (two projects with one folder name), rather than taking it over.
 */
export function mergeUserServer(client: UserClient, text: string | null, path: string, root: string, self: AxmeSelf): string {
  const name = userServerName(root);
  const other = projectOf(client, text, path, name);
  if (other === FOREIGN) {
    throw new AxmeError(
      'CONFIG',
      `${path}: a server named "${name}" is already there and is not axme's: rename or remove that entry, then run the command again; nothing was changed`,
      { path, server: name },
    );
  }
  if (other !== null && other !== root) {
    throw new AxmeError(
      'CONFIG',
      `${path}: the server "${name}" already starts axme in ${other}, another project with the same folder name: rename or remove that entry, then run the command again; nothing was changed`,
      { path, server: name },
    );
  }
  return mergeJsonServer(text, format(client), userServerEntry(root, self), path, name);
}

/** The file's text without this project's server (null: nothing else is left); unchanged when its server names another project. */
export function removeUserServer(client: UserClient, text: string, path: string, root: string): string | null {
  const name = userServerName(root);
  const other = projectOf(client, text, path, name);
  if (other === FOREIGN || (other !== null && other !== root)) return text;
  return removeJsonServer(text, format(client), path, name);
}

/** A server of that name that is not an axme serving a project (`… -C <dir> serve`): someone else's. */
const FOREIGN = Symbol('foreign');

/** The project (`-C <dir>`) the server `name` starts axme in; null when there is no such server; FOREIGN when it is not axme's. */
function projectOf(client: UserClient, text: string | null, path: string, name: string): string | null | typeof FOREIGN {
  if (text === null) return null;
  const entry = serversOf(parseJsonObject(text, path), format(client), path)[name];
  if (entry === undefined) return null;
  if (!isObject(entry) || !Array.isArray(entry.args)) return FOREIGN;
  const i = entry.args.indexOf('-C');
  const serves = entry.args.at(-1) === 'serve' && entry.args.some((a) => typeof a === 'string' && /(^|\/)axme(\.cjs)?$/.test(a));
  return serves && i >= 0 && typeof entry.args[i + 1] === 'string' ? (entry.args[i + 1] as string) : FOREIGN;
}

function format(client: UserClient): JsonServersFormat {
  return { kind: 'json', key: client.user.key };
}

/** The real path (a symlinked global install keeps working after an upgrade moves the link). */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}
