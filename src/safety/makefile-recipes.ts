/**
 * What make runs of a Makefile the command line writes itself (`echo 'x: ; rm -rf ~' | make -f -`,
 * `make -f <(printf …)`, `make -f - <<'EOF'`): each recipe line, handed to a shell.
 */

/** make's names for itself. */
const MAKES = /^(?:g|b)?make$/;

/** Whether `program` with `args` reads its Makefile from stdin (`make -f -`, `--file=-`, `-f /dev/stdin`). */
export function makeReadsStdin(program: string, args: readonly string[]): boolean {
  return makefileArgs(program, args).some((f) => f === '-' || f === '/dev/stdin');
}

/** The Makefiles `make` is named (`-f FILE`, `-fFILE`, `--file=FILE`, `--makefile FILE`), by index of the argument holding each; none for another program. */
export function makefileAt(program: string, args: readonly string[]): number[] {
  if (!MAKES.test(program)) return [];
  const at: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if ((a === '-f' || a === '--file' || a === '--makefile') && i + 1 < args.length) at.push(++i);
  }
  return at;
}

/** The names make looks for when no `-f` names its Makefile, in its order. */
const DEFAULT_MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];

/**
 * The Makefiles `make` reads (written-scripts.ts: one the line wrote runs its recipes): those `-f`
 * names, else the default names, each in the folder `-C DIR` names; none for another program.
 */
export function makefilesRead(program: string, args: readonly string[]): string[] {
  if (!MAKES.test(program)) return [];
  let dir = '';
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const a = args[i]!;
    const m = /^(?:-C|--directory=)(.+)$/.exec(a);
    if (m) dir = `${m[1]}/`;
    else if ((a === '-C' || a === '--directory') && i + 1 < args.length) dir = `${args[++i]}/`;
  }
  const named = makefileArgs(program, args);
  return (named.length ? named.filter((f) => f !== '-' && f !== '/dev/stdin') : DEFAULT_MAKEFILES).map((f) => (f.startsWith('/') ? f : dir + f));
}

function makefileArgs(program: string, args: readonly string[]): string[] {
  const named = makefileAt(program, args).map((i) => args[i]!);
  if (!MAKES.test(program)) return named;
  for (const a of args) {
    const m = /^(?:-f|--file=|--makefile=)(.+)$/.exec(a);
    if (m) named.push(m[1]!);
  }
  return named;
}

/**
 * The shell lines of a Makefile's recipes: lines starting with a tab after a rule, and what follows
 * the `;` of a rule's line (`x: ; rm -rf ~`), with `@`, `-` and `+` taken off their start and `$$`
 * as the `$` make hands the shell; a `\` at a line's end joins the next.
 */
export function makefileRecipes(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    let recipe: string | null = null;
    if (line.startsWith('\t')) recipe = line.slice(1);
    else {
      const rule = /^[^\t#=]*?[^:=]:{1,2}(?!=)[^;#=]*;(.*)$/.exec(line);
      if (rule) recipe = rule[1]!;
    }
    if (recipe === null) continue;
    recipe = recipe.replace(/^[\s@+-]+/, '').replace(/\$\$/g, '$');
    if (recipe.trim()) out.push(recipe);
  }
  return out.join('\n');
}
