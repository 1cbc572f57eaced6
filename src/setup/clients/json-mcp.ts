import { AxmeError } from '../../model/errors.ts';
import { isObject, type Json, parseJsonObject, renderJson } from '../json-file.ts';

/**
 * The JSON format of MCP clients that keep their servers in one object of a JSON file
 * (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`, `.gemini/settings.json`): the `axme`
 * entry is added under `key`, every other server and key stays, the file's indentation stays.
 * Pure: text in, text out.
 */

export interface JsonServersFormat {
  kind: 'json';
  /** the object that holds the servers: `mcpServers`, or VS Code's `servers` */
  key: string;
}

/** The file's text with the server `name` (`axme`) set to `entry` (fields the user added to it stay). */
export function mergeJsonServer(text: string | null, format: JsonServersFormat, entry: Json, path: string, name = 'axme'): string {
  const config = text === null ? {} : parseJsonObject(text, path);
  const servers = serversOf(config, format, path);
  const previous = isObject(servers[name]) ? servers[name] : {};
  return renderJson({ ...config, [format.key]: { ...servers, [name]: { ...previous, ...entry } } }, text ?? undefined);
}

/**
 * The file's text without the server `name` (`axme`): an object of servers left empty goes too,
 * and null when nothing else is left (the file is then removed). The same text when there is no
 * such server.
 */
export function removeJsonServer(text: string, format: JsonServersFormat, path: string, name = 'axme'): string | null {
  const config = parseJsonObject(text, path);
  const servers = serversOf(config, format, path);
  if (!(name in servers)) return text;
  const { [name]: _ours, ...others } = servers;
  const rest: Json = { ...config, [format.key]: others };
  if (!Object.keys(others).length) delete rest[format.key];
  return Object.keys(rest).length ? renderJson(rest, text) : null;
}

/** The object of servers in a parsed file (empty when absent; CONFIG when it is not an object). */
export function serversOf(config: Json, format: JsonServersFormat, path: string): Json {
  const servers = config[format.key];
  if (servers === undefined) return {};
  if (!isObject(servers))
    throw new AxmeError('CONFIG', `${path}: "${format.key}" must be an object of servers: fix it, then run the command again; nothing was changed`, { path });
  return servers;
}
