import type { Diagnostic } from './state.ts';

/** One finding as a line, the same on every surface: `error: <store>: <path>: <reason>`. */
export function diagnosticLine(d: Diagnostic): string {
  return `${d.severity}: ${d.store && d.store !== d.path ? `${d.store}: ` : ''}${d.path}: ${d.reason}`;
}
