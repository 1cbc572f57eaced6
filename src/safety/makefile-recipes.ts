/**
 * make's command line — the Makefiles it reads, its folder, its goals and variables — and what it
 * runs of a Makefile the command line writes itself (`echo 'x: ; rm -rf ~' | make -f -`, `make -f
 * <(printf …)`, `make -f - <<'EOF'`): each recipe line, handed to a shell. A project's Makefile
 * read from disk is makefile-rules.ts's.
 */

/** make's names for itself. */
const MAKES = /^(?:g|b)?make$/;

/** Whether `program` is make. */
export function isMake(program: string): boolean {
  return MAKES.test(program);
}

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
  const dir = makeFolder(args);
  const named = makefileArgs(program, args);
  return (named.length ? named.filter((f) => f !== '-' && f !== '/dev/stdin') : DEFAULT_MAKEFILES).map((f) => (f.startsWith('/') ? f : dir + f));
}

/** The folder `make -C DIR` runs in (`-C a -C b` is `a/b`), with its `/`; '' for none. */
export function makeFolder(args: readonly string[]): string {
  let dir = '';
  for (let i = 0; i < args.length && args[i] !== '--'; i++) {
    const a = args[i]!;
    const m = /^(?:-C|--directory=)(.+)$/.exec(a);
    const d = m ? m[1]! : (a === '-C' || a === '--directory') && i + 1 < args.length ? args[++i]! : null;
    if (d !== null) dir = d.startsWith('/') ? `${d}/` : `${dir}${d}/`;
  }
  return dir;
}

/** make's options that take the next word as their value. */
const MAKE_VALUED = new Set([
  '-C',
  '-f',
  '-I',
  '-o',
  '-W',
  '-E',
  '--directory',
  '--file',
  '--makefile',
  '--include-dir',
  '--old-file',
  '--assume-old',
  '--new-file',
  '--assume-new',
  '--what-if',
  '--eval',
]);

/** What `make` is asked to build: its goals, the variables its command line sets (`X=v`), and whether it only prints (`-n`, `-q`, `-t`). */
export function makeGoals(args: readonly string[]): { goals: string[]; vars: Map<string, string>; dryRun: boolean } {
  const goals: string[] = [];
  const vars = new Map<string, string>();
  let dryRun = false;
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (options && a === '--') options = false;
    else if (options && a.startsWith('--')) {
      if (/^--(?:just-print|dry-run|recon|question|touch)$/.test(a)) dryRun = true;
      if (MAKE_VALUED.has(a)) i++;
    } else if (options && a.startsWith('-') && a.length > 1) {
      // a cluster of short options: one that takes a value ends it (`-Csub`, `-kj4`)
      for (let k = 1; k < a.length; k++) {
        const o = a[k]!;
        if ('nqt'.includes(o)) dryRun = true;
        if ('CfIoWE'.includes(o)) {
          if (k === a.length - 1) i++;
          break;
        }
        if ((o === 'j' || o === 'l') && k === a.length - 1 && /^\d+(\.\d+)?$/.test(args[i + 1] ?? '')) i++;
        if (o === 'j' || o === 'l') break;
      }
    } else {
      const eq = /^([^=\s:]+):{0,3}=(.*)$/s.exec(a);
      if (eq) vars.set(eq[1]!, eq[2]!);
      else goals.push(a);
    }
  }
  return { goals, vars, dryRun };
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
