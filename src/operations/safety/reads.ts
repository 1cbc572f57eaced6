import { z } from 'zod';
import type { Diagnostic } from '../../knowledge/core/state.ts';
import type { SafetyUpdateResult } from '../../knowledge/rules/update-safety.ts';
import { safetyBlock } from '../../knowledge/views/blocks.ts';
import { type SafetyRules, SafetyUpdate } from '../../model/safety-rules.ts';
import { diagnosticNotes } from '../lines.ts';
import { defineOperation, EDIT, READ } from '../operation.ts';
import { atParam } from '../params.ts';

type Shown = { rules: SafetyRules; diagnostics: Diagnostic[]; workspace?: { store: string; commit: string | null } | undefined };

type Updated = SafetyUpdateResult & { input: { action: string; rule_type: string; value: string } };

const Rules = z.looseObject({}).describe('the rules by section: git, bash, filesystem, github');

/** safety.show: `axme safety show`, `axme_safety`. */
export const safetyShow = defineOperation({
  id: 'safety.show',
  summary: 'Safety rules',
  description: 'The safety rules the hooks enforce on every tool call.',
  input: { at: atParam },
  output: z.looseObject({ rules: Rules, diagnostics: z.array(z.looseObject({})).describe('problems reading the rules file') }),
  annotations: READ,
  write: false,
  mcp: { tool: 'axme_safety' },
  async run(kb, input): Promise<Shown> {
    const { showSafety } = await import('../../knowledge/rules/show-safety.ts');
    const r = await showSafety(kb, { at: input.at });
    return { rules: r.rules, diagnostics: r.diagnostics, workspace: r.workspace };
  },
  // the terminal gets the rules as YAML (the file's form), problems on stderr; --json the rules alone
  cli: {
    command: ['safety', 'show'],
    describe: 'print the rules in force',
    async print(r, p) {
      for (const n of diagnosticNotes(r.diagnostics, p.json)) p.note(n);
      if (p.json) return p.printJson(r.rules);
      const { stringifyYaml } = await import('../../model/frontmatter.ts');
      if (r.workspace?.commit) p.out(`# in force: this repository's rules combined with the workspace store's (${r.workspace.store}); see docs/workspaces.md`);
      p.out(stringifyYaml(r.rules));
    },
  },
  json: (r) => ({ rules: r.rules, diagnostics: r.diagnostics }),
  text: (r) => `# Safety rules\n${safetyBlock(r.rules)}${r.diagnostics.length ? `\n\nProblems: ${r.diagnostics.map((d) => d.reason).join('; ')}` : ''}`,
});

/** safety.update: `axme_update_safety` (the CLI's `axme safety add|remove` are its twins). */
export const safetyUpdate = defineOperation({
  id: 'safety.update',
  summary: 'Change a safety rule',
  description: 'Add (or remove) a safety rule: a protected branch, a denied or allowed command prefix, a denied or read-only path.',
  input: SafetyUpdate.shape,
  output: z.looseObject({
    rules: Rules,
    changed: z.boolean().describe('false when the rules already said so: nothing was written'),
    commit: z.string().nullable().describe('the commit (null when nothing changed)'),
  }),
  annotations: EDIT,
  write: true,
  cli: null,
  mcp: { tool: 'axme_update_safety' },
  async run(kb, input): Promise<Updated> {
    const { updateSafety } = await import('../../knowledge/rules/update-safety.ts');
    const r = await updateSafety(kb, input);
    return { ...r, input: { action: input.action ?? 'add', rule_type: input.rule_type, value: input.value } };
  },
  json: ({ input: _i, ...r }) => r,
  // removing a rule that is not there is NOT_FOUND in the core: unchanged means already present
  text: ({ changed, input: { action, rule_type, value } }) =>
    `Safety rule ${changed ? (action === 'add' ? 'added' : 'removed') : 'already present'}: ${rule_type} = ${value}`,
});
