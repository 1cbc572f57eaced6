import type { Argv } from 'yargs';
import { AxmeError } from '../../model/errors.ts';
import { TOKEN_SCOPES } from '../../model/token.ts';
import { type CliArgs, type CliIO, clockFrom, note, out, printJson } from '../io.ts';

/** `axme token add|list|revoke`: the bearer tokens of `axme serve --http` (only their hashes are kept). */
export function tokenCommand(io: CliIO) {
  const fileOption = (y: Argv) =>
    y.option('tokens', { type: 'string', describe: 'the tokens file (default: <git common dir>/axme/tokens.json of this repository)' });
  const path = async (a: CliArgs) => {
    if (a.tokens !== undefined && (typeof a.tokens !== 'string' || !a.tokens)) throw new AxmeError('INVALID_INPUT', '--tokens needs one file');
    const { tokensPath } = await import('../../knowledge/admin/tokens.ts');
    return tokensPath({ cwd: (a.C as string | undefined) ?? io.cwd, env: io.env, file: a.tokens as string | undefined });
  };
  return {
    command: 'token',
    describe: 'bearer tokens of axme serve --http: add (printed once), list, revoke',
    builder: (y: Argv) =>
      y
        .command({
          command: 'add <name>',
          describe: 'make a token: printed once, only its hash is kept',
          builder: (yy: Argv) =>
            fileOption(yy)
              .positional('name', { type: 'string', describe: 'who uses it: the name its commits carry (Axme-Token trailer)' })
              .option('scope', {
                type: 'string',
                choices: [...TOKEN_SCOPES],
                demandOption: true,
                describe: 'read (read-only tools), write (every tool), admin (everything)',
              }),
          handler: async (a: CliArgs) => {
            const { addToken } = await import('../../knowledge/admin/tokens.ts');
            const file = await path(a);
            const r = addToken({ path: file, name: String(a.name), scope: String(a.scope), now: clockFrom(io.env)() });
            if (a.json) return printJson(io, { name: r.name, scope: r.scope, token: r.token });
            out(io, r.token);
            note(io, `axme: token ${r.name} (${r.scope}) added to ${file}; it is shown this once: give it to its user (Authorization: Bearer <token>)`);
          },
        })
        .command({
          command: 'list',
          describe: 'the tokens: names, scopes, when added and last used (never the token)',
          builder: fileOption,
          handler: async (a: CliArgs) => {
            const { listTokens } = await import('../../knowledge/admin/tokens.ts');
            const list = listTokens(await path(a));
            if (a.json) return printJson(io, list);
            if (!list.length) return note(io, 'axme: no tokens (axme token add <name> --scope read|write|admin)');
            for (const t of list) out(io, `${t.name}\t${t.scope}\tcreated ${t.created}\tlast used ${t.lastUsed ?? 'never'}`);
          },
        })
        .command({
          command: 'revoke <name>',
          describe: 'remove a token: requests with it are refused from then on (a running server rereads the file; with none left it refuses everyone)',
          builder: (yy: Argv) => fileOption(yy).positional('name', { type: 'string', describe: 'the token to remove' }),
          handler: async (a: CliArgs) => {
            const { revokeToken } = await import('../../knowledge/admin/tokens.ts');
            const r = revokeToken({ path: await path(a), name: String(a.name) });
            if (a.json) return printJson(io, { revoked: r.name, left: r.left });
            out(io, `revoked ${r.name}`);
            if (!r.left)
              note(
                io,
                'axme: no token left: a running axme serve --http refuses every request until one is added (axme token add <name> --scope read|write|admin)',
              );
          },
        })
        .demandCommand(1, 'say what to do: add, list or revoke'),
    handler: () => {},
  };
}
