/**
 * The commands with which package managers print their own download cache's folder (`npm config
 * get cache`, `go env GOCACHE`, `poetry config cache-dir`, `brew --cache`): removing what they print
 * is the housekeeping their own `npm cache clean --force`, `go clean -cache`, `pip cache purge` do —
 * the cache fills again on the next install. A query for any other folder of theirs (`npm config get
 * prefix`, `go env GOROOT`, `brew --prefix`, `composer config home`, `npm root -g`) is not one.
 */
const CACHE_FOLDER_QUERIES: Readonly<Record<string, readonly (readonly string[])[]>> = {
  npm: [['config', 'get', 'cache']],
  pnpm: [['store', 'path']],
  yarn: [
    ['cache', 'dir'],
    ['config', 'get', 'cacheFolder'],
  ],
  bun: [['pm', 'cache']],
  pip: [['cache', 'dir']],
  pip3: [['cache', 'dir']],
  python: [['-m', 'pip', 'cache', 'dir']],
  python3: [['-m', 'pip', 'cache', 'dir']],
  uv: [['cache', 'dir']],
  poetry: [['config', 'cache-dir']],
  go: [
    ['env', 'GOCACHE'],
    ['env', 'GOMODCACHE'],
  ],
  brew: [['--cache']],
  composer: [
    ['config', 'cache-dir'],
    ['global', 'config', 'cache-dir'],
    ['config', '--global', 'cache-dir'],
  ],
};

/** Whether `program ARGS` (its words past the program, exactly) prints its package manager's own cache folder. */
export function printsCacheFolder(program: string, args: readonly string[]): boolean {
  const queries = Object.hasOwn(CACHE_FOLDER_QUERIES, program) ? CACHE_FOLDER_QUERIES[program]! : [];
  return queries.some((q) => q.length === args.length && q.every((word, i) => word === args[i]));
}
