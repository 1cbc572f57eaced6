import { resolve } from 'node:path';
import { z } from 'zod';
import type { WorkspaceStatus } from '../knowledge/workspace/workspace-status.ts';
import { defineOperation, READ } from './operation.ts';

/** workspace: `axme workspace`, `axme_workspace`: a folder, not one store (it needs no knowledge base). */
export const workspace = defineOperation({
  id: 'workspace',
  summary: 'Workspace',
  description:
    'The workspace this repository belongs to (a folder of repositories with a shared store, <workspace>/.axme.git): the workspace store and every repository, with their store tips and item counts. Outside a workspace: this one repository.',
  // the CLI names the folder with -C
  input: { path: z.string().max(4096).optional().describe('a repository or workspace folder (default: the server folder)') },
  output: z.looseObject({
    root: z.string().nullable().describe('the workspace folder (null: a repository outside any workspace)'),
    store: z.looseObject({}).nullable().describe('the workspace store: path, ref, commit, date, counts, problems, kind (null outside a workspace)'),
    markers: z.array(z.string()).describe('what marks the folder as a workspace'),
    repos: z.array(z.looseObject({})).describe('each repository: name, path, ref, commit, date, counts by kind and status, problems'),
  }),
  annotations: READ,
  write: false,
  folder: true,
  cli: {
    command: ['workspace'],
    describe: 'the workspace this folder belongs to: its store and every repository, with store tips and counts (docs/workspaces.md)',
    omit: ['path'],
  },
  mcp: { tool: 'axme_workspace' },
  async run(at, input): Promise<{ status: WorkspaceStatus; text: string }> {
    const { workspaceStatus, workspaceText } = await import('../knowledge/workspace/workspace-status.ts');
    const status = await workspaceStatus({ cwd: resolve(at.cwd, input.path ?? '.'), env: at.env });
    return { status, text: workspaceText(status) };
  },
  json: (r) => ({ ...r.status }),
  text: (r) => r.text,
});
