import type { TokenScope } from '../../model/token.ts';
import { registerAll } from '../server.ts';
import { type SharedStore, sessionContext } from './session-context.ts';

/** Each tool's scope, from its declaration: read-only tools need `read`, every other one `write`. */
export function toolScopes(shared: SharedStore): Map<string, TokenScope> {
  const scopes = new Map<string, TokenScope>();
  const recorder = {
    registerTool: (name: string, config: { annotations?: { readOnlyHint?: boolean } }) =>
      void scopes.set(name, config.annotations?.readOnlyHint === true ? 'read' : 'write'),
    registerResource: () => undefined,
  };
  registerAll(
    recorder as never,
    sessionContext(shared, () => undefined, { id: null, name: null, scope: 'read' }),
  );
  return scopes;
}
