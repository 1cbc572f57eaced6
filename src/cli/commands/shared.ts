import type { Argv } from 'yargs';
import { AxmeError } from '../../model/errors.ts';
import { LIMITS } from '../../model/limits.ts';
import { type CliIO, readStdin } from '../io.ts';

/** --allow-secret, and --stdin <field> to read one long text field from standard input. */
export const writeOptions = (y: Argv, stdinFields: string[]) => {
  const withSecret = y.option('allow-secret', { type: 'boolean', describe: 'store content that looks like a credential anyway' });
  return stdinFields.length
    ? withSecret.option('stdin', { type: 'string', choices: stdinFields, describe: 'read this field from standard input (for long or multi-line text)' })
    : withSecret;
};

/** The field named by --stdin, read from standard input. */
export async function stdinFields(io: CliIO, a: Record<string, unknown>, allowed: string[]): Promise<Record<string, string>> {
  const field = a.stdin as string | undefined;
  if (!field) return {};
  if (!allowed.includes(field)) throw new AxmeError('INVALID_INPUT', `--stdin takes one of ${allowed.join(', ')}`);
  if (a[field] !== undefined) throw new AxmeError('INVALID_INPUT', `--${field} and --stdin ${field} both give ${field}: use one`);
  return { [field]: await readStdin(io, LIMITS.text * 4) };
}
