import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { readState } from '../knowledge/core/state.ts';
import { showItem } from '../knowledge/items/show-item.ts';
import { isAxmeError } from '../model/errors.ts';
import type { ItemBase } from '../model/kind.ts';
import { type KindFacts, kindTables } from '../model/kind-facts.ts';
import { KINDS, type KindName } from '../model/kinds.ts';
import type { ServerContext } from './context.ts';

/** The JSON-RPC error of a read of a resource that is not there (MCP specification, "Resources", "Error Handling"). */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * Items of every kind declared `resource` (of `kinds`, by default every declared kind) as resources:
 * axme://<folder>/<slug>, listed from the current tip, read as their Markdown.
 */
export function registerResources(server: McpServer, ctx: ServerContext, kinds: ReadonlyArray<KindFacts> = Object.values(KINDS)): void {
  const dirOf = new Map(kinds.map((k) => [k.kind, k.dir]));
  for (const kind of kindTables(kinds).resourceKinds) {
    const dir = dirOf.get(kind)!;
    server.registerResource(
      `axme-${dir}`,
      new ResourceTemplate(`axme://${dir}/{slug}`, {
        list: async () => {
          // a read binds no session: Claude Code lists resources as it starts, beside its SessionStart
          // hook, and a server binding one then would open a session of its own before the hook's
          const state = await readState(await ctx.kb(undefined, { bindSession: false }));
          return {
            resources: ((state.items as Partial<Record<string, ItemBase[]>>)[kind] ?? []).map((i) => {
              const rec = i as ItemBase & { id?: string; title?: string; status?: string };
              return {
                uri: `axme://${dir}/${encodeURIComponent(i.slug)}`,
                name: `${rec.id ? `${rec.id} ` : ''}${rec.title ?? i.slug}`,
                description: rec.status ? `${kind}, ${rec.status}` : kind,
                mimeType: 'text/markdown',
              };
            }),
          };
        },
      }),
      { title: `axme ${dir}`, description: `${dir} in refs/memory/main, as Markdown files`, mimeType: 'text/markdown' },
      async (uri, vars) => {
        // a slug in another script arrives percent-encoded (URLs are ASCII)
        const raw = String(Array.isArray(vars.slug) ? vars.slug[0] : vars.slug);
        let slug = raw;
        try {
          slug = decodeURIComponent(raw);
        } catch {
          // not valid percent-encoding: looked up as given (and reported as not found)
        }
        const kb = await ctx.kb(undefined, { bindSession: false });
        const r = await showItem(kb, { kind: kind as KindName, ref: slug }).catch((err: unknown) => {
          // no such item is the client's mistake, not the server's (-32603): the SDK passes an McpError's code on
          if (isAxmeError(err, 'NOT_FOUND')) throw new McpError(RESOURCE_NOT_FOUND, err.message, { uri: uri.href });
          throw err;
        });
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: r.text }] };
      },
    );
  }
}
