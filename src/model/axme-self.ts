/** One axme on this machine: the node and the script it runs (what `axme init` records, hook commands name and background work starts). */
export interface AxmeSelf {
  execPath: string;
  script: string;
}

/**
 * The axme a process started as `<node> <script>` is (`process.execPath`, `process.argv[1]`); null
 * when it has no script (`node -e`, a host that embeds axme): then no axme is known to start.
 */
export function axmeSelf(execPath: string, script: string | undefined): AxmeSelf | null {
  return script ? { execPath, script } : null;
}
