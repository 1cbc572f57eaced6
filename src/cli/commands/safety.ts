import type { Argv } from 'yargs';
import { RULE_SETTINGS, RULE_TYPES, type RuleType } from '../../model/safety-rules.ts';
import { out, printJson, withKb, type CliIO } from '../io.ts';
import { safetyShow } from '../../operations/safety.ts';
import { operationCommand } from '../operation-command.ts';

type Args = Record<string, unknown> & { C?: string; json?: boolean };
const ruleTypes = Object.keys(RULE_TYPES);

export function safetyCommand(io: CliIO) {
  const change = (action: 'add' | 'remove') => (a: Args) =>
    withKb(io, a, async (kb) => {
      const { updateSafety } = await import('../../knowledge/rules/update-safety.ts');
      const r = await updateSafety(kb, { action, rule_type: a.type as RuleType, value: String(a.value) });
      if (a.json) return printJson(io, r);
      out(io, r.changed ? `Safety rule ${action === 'add' ? 'added' : 'removed'}: ${String(a.type)} = ${String(a.value)}` : `Safety rule already present: ${String(a.type)} = ${String(a.value)}`);
    });
  const ruleArgs = (y: Argv) => y.positional('type', { choices: ruleTypes, describe: 'which list' }).positional('value', { type: 'string', describe: 'branch, command prefix, command or path/glob' });
  return {
    command: 'safety',
    describe: 'safety rules enforced by the hooks: show, add, remove, set, reset',
    builder: (y: Argv) =>
      y
        .command(operationCommand(io, safetyShow))
        .command('add <type> <value>', 'add a rule to a list', ruleArgs, change('add'))
        .command('remove <type> <value>', 'remove a rule from a list', ruleArgs, change('remove'))
        .command(
          'set <key> <value>',
          'change a setting',
          (y) => y.positional('key', { choices: Object.keys(RULE_SETTINGS) }).positional('value', { type: 'string', describe: 'true/false, or agents/always/never' }),
          (a: Args) =>
            withKb(io, a, async (kb) => {
              const { setSafetySetting } = await import('../../knowledge/rules/set-safety-setting.ts');
              const r = await setSafetySetting(kb, { key: a.key as keyof typeof RULE_SETTINGS, value: String(a.value) });
              if (a.json) return printJson(io, r);
              out(io, `${r.changed ? 'Safety setting changed' : 'Safety setting unchanged'}: ${String(a.key)} = ${String(a.value)}`);
            }),
        )
        .command('reset', 'write the default rules (the current file stays in history)', (y) => y, (a: Args) =>
          withKb(io, a, async (kb) => {
            const { resetSafetyRules } = await import('../../knowledge/rules/reset-safety-rules.ts');
            const r = await resetSafetyRules(kb);
            if (a.json) return printJson(io, r);
            out(io, 'Safety rules reset to the defaults');
          }),
        )
        .demandCommand(1, 'say what to do: show, add, remove, set or reset'),
    handler: () => {},
  };
}
