import { createRequire } from 'node:module';

/**
 * Node's built-in modules that the hook's fast path loads only when a call needs them: each costs
 * a hook process 10–25 ms to load (child_process and net pull in streams), and most shell calls need
 * none of them (measured with --cpu-prof: 45 ms of a 210 ms hook went to loading these three).
 * The hook runs before every tool call, so a top-level import of one is a cost on every call.
 */
const load = createRequire('/axme-builtins.js');

export const childProcess = (): typeof import('node:child_process') => load('node:child_process') as typeof import('node:child_process');
export const crypto = (): typeof import('node:crypto') => load('node:crypto') as typeof import('node:crypto');
export const net = (): typeof import('node:net') => load('node:net') as typeof import('node:net');
