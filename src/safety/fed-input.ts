import { isSecretName, PROJECT_SECRET_NAMES } from '../model/sandbox.ts';
import { shellQuote } from '../model/shell-quote.ts';
import { argvOf, runsFedText } from './bash-rules.ts';
import { type Invocation, programName, SHELLS } from './command.ts';
import { printedBy } from './expand.ts';
import { xargsBranchDelete } from './families/git-branch-listings.ts';
import { xargsRefDeletes } from './families/git-ref-listings.ts';
import { interpreterPrints } from './families/interpreter.ts';
import type { Finding } from './git-rules.ts';
import { literalPrints } from './literal-printers.ts';
import { parallelLine, parallelScripts } from './parallel.ts';
import { NAME_PRINTERS } from './path-access.ts';
import { pathUses } from './path-uses.ts';
import { listingAsFind, printedNames, UNKNOWN_NAMES } from './printed-names.ts';
import { removesRecursively } from './removal.ts';
import { grepKeeps } from './search-patterns.ts';
import { parseShell, type SimpleCommand, UNKNOWN } from './shell.ts';
import { plainWord, type Word } from './syntax.ts';
import { type Passing, passing, selectsFields } from './text-filters.ts';

/**
 * What one stage of a pipeline feeds the next, where the command line itself tells it: the text
 * a static stage writes (`echo …`, `printf …`, `cat <<EOF`), and the commands xargs and GNU
 * parallel build from the words they read (`echo / | xargs rm -rf`, `find ~ | parallel rm -rf`).
 */

/**
 * The text a pipeline stage writes when it is static: `echo "..."`, `printf '...'` (as expand.ts
 * printedBy reads them; a format it does not read, its words side by side), `cat <<EOF`, `tee
 * FILE <<< '...'` (tee passes its input on).
 */
export function fedText(cmd: SimpleCommand, inv: Invocation | null): string | null {
  const input = cmd.redirects.find((r) => r.input !== null)?.input;
  if (input && (!inv || inv.program === 'cat' || inv.program === 'tee')) return input;
  // `python3 -c 'print("…")'`: what a one-liner prints of literals (families/interpreter.ts)
  // `jq -rn '"…" | @base64d'`, `awk 'BEGIN{printf "%c", 114}'`: what jq and awk print of literals (literal-printers.ts)
  const printed = inv && !inv.via.includes('xargs') ? (interpreterPrints(inv) ?? literalPrints(inv)) : null;
  if (printed !== null) return printed;
  // `xargs echo` prints the words it reads (text-filters.ts), not its own alone
  if ((inv?.program !== 'echo' && inv?.program !== 'printf') || inv.via.includes('xargs')) return null;
  const args = inv.args.map((a) => a.value);
  return printedBy(inv.program, args) ?? args.map((v) => v.replace(/\\n/g, '\n')).join(' ');
}

/**
 * What the stages of one script's pipelines write, read on and pass on (`stageAt`: a pipeline's
 * stage at an index; `invOf`: the program a stage runs), each stage's found once, so a long
 * pipeline is read in linear time; `charge` pays for each transform's text (the walk's work budget).
 */
export class PipeReading {
  private readonly written = new Map<SimpleCommand, string | null>();
  private readonly passes = new Map<SimpleCommand, Passing>();
  private readonly sources = new Map<SimpleCommand, SimpleCommand>();
  private readonly nameSources = new Map<SimpleCommand, SimpleCommand>();

  constructor(
    private readonly stageAt: (pipeline: number, index: number) => SimpleCommand | undefined,
    readonly invOf: InvocationOf,
    private readonly charge: (work: number) => void,
  ) {}

  /** What `stage` writes of the text it reads (text-filters.ts), found once. */
  passing(stage: SimpleCommand): Passing {
    let pass = this.passes.get(stage);
    if (pass === undefined) {
      const inv = this.invOf(stage);
      this.passes.set(stage, (pass = inv && passing(inv)));
    }
    return pass;
  }

  /** The text `cmd` reads on stdin from the stage before it, where the command line tells it (`echo '…' | sed 's/a/b/' | sh`); null where it does not. */
  read(cmd: SimpleCommand): string | null {
    const before = cmd.index > 0 ? this.stageAt(cmd.pipeline, cmd.index - 1) : undefined;
    return before ? this.writes(before) : null;
  }

  /**
   * The text `stage` writes: a static stage's (fedText), or a filter's of what it reads — its own
   * here-string, else the stage before — kept or transformed; null where the command line does not tell.
   */
  writes(stage: SimpleCommand): string | null {
    // the stages back to one already read or one that is no filter, then each forward: no recursion, each once
    const chain: Array<[SimpleCommand, string | null]> = [];
    for (let at: SimpleCommand | undefined = stage; at && !this.written.has(at); ) {
      const fed = fedText(at, this.invOf(at));
      chain.push([at, fed]);
      if (fed !== null || !this.passing(at) || ownInput(at) !== null) break;
      at = at.index > 0 ? this.stageAt(at.pipeline, at.index - 1) : undefined;
    }
    for (const [at, fed] of chain.reverse()) {
      let text = fed;
      const pass = text === null ? this.passing(at) : null;
      if (pass) {
        const before = at.index > 0 ? this.stageAt(at.pipeline, at.index - 1) : undefined;
        const input = ownInput(at) ?? (before ? (this.written.get(before) ?? null) : null);
        if (input !== null && pass !== 'kept') this.charge(input.length);
        text = input === null ? null : pass === 'kept' ? input : pass(input);
      }
      this.written.set(at, text);
    }
    return this.written.get(stage) ?? null;
  }

  /** The stage before `stage` and any filters that keep the lines they read (`| tee log | xargs`, `| grep -v x | sort |`): where what reaches the next stage is printed. */
  source(stage: SimpleCommand): SimpleCommand {
    return this.back(stage, this.sources, (at) => this.passing(at) === 'kept');
  }

  /**
   * As `source`, also back through the stages that select fields of the lines they read
   * (text-filters.ts selectsFields: `| cut -f2 |`, `| awk '{print $NF}' |`): where the names that
   * reach the next stage are printed (`du .env | cut -f2 | xargs cat` reads `.env`).
   */
  nameSource(stage: SimpleCommand): SimpleCommand {
    return this.back(stage, this.nameSources, (at) => {
      const inv = this.invOf(at);
      return this.passing(at) === 'kept' || (inv !== null && selectsFields(inv));
    });
  }

  /** The first stage back from `stage` that `through` does not pass, each stage's answer kept in `found`. */
  private back(stage: SimpleCommand, found: Map<SimpleCommand, SimpleCommand>, through: (at: SimpleCommand) => boolean): SimpleCommand {
    const chain: SimpleCommand[] = [];
    let at = stage;
    for (;;) {
      const known = found.get(at);
      if (known) {
        at = known;
        break;
      }
      const before = at.index > 0 && through(at) ? this.stageAt(at.pipeline, at.index - 1) : undefined;
      if (!before) break;
      chain.push(at);
      at = before;
    }
    for (const c of chain) found.set(c, at);
    return at;
  }
}

/** A stage's own here-string or heredoc, which it reads in place of the pipe. */
function ownInput(stage: SimpleCommand): string | null {
  return stage.redirects.find((r) => r.input !== null)?.input ?? null;
}

/**
 * The texts shells read from the process substitutions `cmd` (stage `cmd.index` of `stages`)
 * writes into, where the command line tells them: `tee >(sh)` — tee writes what it reads to each
 * file it names — and `echo '…' > >(bash)`, the command's output sent there (PipeReading reads
 * what it writes). Only a substitution whose first stage is a shell reading stdin counts.
 */
export function substitutionFeeds(cmd: SimpleCommand, inv: Invocation | null, reading: PipeReading): string[] {
  const shells = shellSubstitutions(cmd, inv, reading.invOf);
  if (!shells) return [];
  const text = reading.writes(cmd);
  return text ? Array.from({ length: shells }, () => text) : [];
}

/** How many process substitutions `cmd` writes into that run a shell reading stdin: the files `tee` names, its output redirected (`> >(sh)`). */
export function shellSubstitutions(cmd: SimpleCommand, inv: Invocation | null, invOf: InvocationOf): number {
  const targets = [
    ...(inv?.program === 'tee' ? inv.args : []),
    ...cmd.redirects.filter((r) => r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>').map((r) => r.target),
  ];
  return targets.filter(
    (w) =>
      w?.raw.startsWith('>(') &&
      w.subs.length === 1 &&
      w.subs[0]!.commands.some((c) => {
        const run = c.index === 0 ? invOf(c) : null;
        return !!run && runsFedText(run);
      }),
  ).length;
}

/** The program a stage of a pipeline runs (the first of its readings), as the walk over a script found it. */
export type InvocationOf = (stage: SimpleCommand) => Invocation | null;

/**
 * The commands `inv` runs with the words it reads on stdin, when it is xargs's command or GNU
 * parallel with no `:::`: from `piped`, the text the stage before writes where the command line
 * tells it (PipeReading read: a static stage's, through the filters between), or a here-string,
 * else, after a `find` (`finderInv`: the stage before any filters that keep its lines), as `find
 * … -exec` would run them. Empty for any other command.
 */
export function fedArgumentScripts(
  inv: Invocation,
  cmd: SimpleCommand,
  feeder: SimpleCommand | undefined,
  feederInv: Invocation | null,
  finderInv: Invocation | null,
  piped: string | null,
  filters: readonly (Invocation | null)[] = [],
): string[] {
  const out: string[] = [];
  // `git ls-files | grep env | xargs cat`: a listing filtered to names a secret's name matches is read as that name
  const secret = feeder && finderInv ? filteredSecret(finderInv, filters) : null;
  const text = () => piped ?? ownInput(cmd);
  // `echo / | xargs rm -rf`, `echo / | cat | xargs rm -rf`, `xargs cat <<< .env`: the words xargs reads become arguments
  if (inv.via.includes('xargs')) {
    const fed = text();
    // `echo .env* | xargs cat`: the names the shell matched, a glob still
    const globs = [feederInv, finderInv].some((i) => i?.args.some((a) => a.glob));
    if (fed) out.push(...xargsScripts(inv, fed, globs));
    else {
      // `find / -maxdepth 1 | xargs rm -rf`, `ls / | xargs rm -rf`: what find or ls prints xargs hands on, as `find … -exec` would
      const found = feeder && findExecScript(finderInv, argvOf(inv));
      if (found) out.push(found);
      // `git branch | grep -v '^\*' | xargs git branch -D`: as `git branch -D $(git branch | grep -v '^\*')` (families/git-branch-listings.ts)
      const listed = feeder && finderInv && xargsBranchDelete(argvOf(inv), finderInv, filters);
      if (listed) out.push(listed);
      // `git stash list | cut -d: -f1 | xargs -n1 git stash drop`: as `git stash clear` (families/git-ref-listings.ts)
      const refs = feeder && finderInv ? xargsRefDeletes(argvOf(inv), finderInv, filters) : null;
      if (refs) out.push(...refs);
      if (secret) out.push(...xargsScripts(inv, secret, false));
      // `realpath .env | xargs cat`: a name printer's lines name its operands
      const named = finderInv && NAME_PRINTERS.has(finderInv.program) ? finderInv.args.filter((a) => !a.value.startsWith('-')) : [];
      if (named.length)
        out.push(
          ...xargsScripts(
            inv,
            named.map((a) => a.value).join('\n'),
            named.some((a) => a.glob),
          ),
        );
    }
  }
  // `echo ~/.ssh/id_rsa | cpio -o`, `find ~/.ssh | tar -cf x -T -`: the names a packer reads on stdin are files it reads, as `xargs cat` reads them
  if (packsNamesFromStdin(inv)) {
    const fed = text();
    const names = fed?.split('\n').filter((n) => n.trim()) ?? [];
    if (names.length) out.push(`cat -- ${names.map((n) => shellQuote(n)).join(' ')}`);
    else if (fed === null) {
      const found = feeder && findExecScript(finderInv, ['cat']);
      if (found) out.push(found);
    }
  }
  // `echo ~ | parallel rm -rf`: with no `:::`, GNU parallel runs its command for each line it reads, as xargs does
  if (inv.program === 'parallel') {
    const line = parallelLine(inv.args);
    const fed = line.groups ? null : text();
    if (fed) out.push(...parallelScripts(line, fed.split('\n').filter(Boolean)));
    else if (!line.groups) {
      const found = line.command.length > 1 && feeder && findExecScript(finderInv, line.command);
      if (found) out.push(found);
      if (secret) out.push(...parallelScripts(line, [secret]));
    }
  }
  return out;
}

/** Secret file names (PROJECT_SECRET_NAMES), each glob's wildcards left empty (`.env.`, `.pem`): what a filter's pattern is tried on. */
const SECRET_SAMPLES = PROJECT_SECRET_NAMES.map((glob) => glob.replaceAll('*', ''));

/**
 * The secret's name a listing's lines may hold once filtered (`git ls-files | grep env`, `ls -a |
 * grep -i secret`, `find . | grep '\.env'`): `finder` lists names (a find, ls, a listing of the
 * project's paths) and one of the `filters` after it is a grep whose pattern a secret's name
 * matches (`env` matches `.env`), or names one itself (`\.env\.local`). Null otherwise: a grep the
 * command line does not tell, `grep -v`, `grep '\.ts$'`.
 */
function filteredSecret(finder: Invocation, filters: readonly (Invocation | null)[]): string | null {
  const listed = printedNames(finder.program, finder.args).names;
  if (listed !== 'listed' && listed !== 'project') return null;
  for (const f of filters) {
    const keeps = f && GREPS.has(f.program) ? grepKeeps(f) : null;
    if (!keeps) continue;
    const sample = SECRET_SAMPLES.find((name) => keeps.test(name));
    if (sample) return sample;
    // a pattern that is a secret's name, its dots escaped (`\.env\.local`, `^id_ed25519$`)
    const literal = keeps.source.replace(/^\(\?:\^?|\$?\)$/g, '').replace(/\\\./g, '.');
    if (!/[\\[\]()*+?{}|^$]/.test(literal) && isSecretName(literal)) return literal;
  }
  return null;
}

/** The greps that pass on the lines of a listing they keep (text-filters.ts). */
const GREPS = new Set(['grep', 'egrep', 'fgrep']);

/**
 * The commands `xargs <program> <args>` runs for the words it reads: each word in place of `{}`
 * when the arguments hold it (`-I {}`), else all of them appended (a few dozen words at most).
 */
function xargsScripts(inv: Invocation, text: string, globs: boolean): string[] {
  // `xargs -0` reads names ended by NUL: a NUL ends one either way
  const words = text
    .split(/[\s\0]+/)
    .filter(Boolean)
    .slice(0, 64);
  if (!words.length) return [];
  const argv = argvOf(inv);
  const quote = (word: string) => (globs ? globQuote(word) : shellQuote(word));
  // `xargs -I{} sh -c 'rm -rf {}'`: xargs puts the word in place of its replace string inside an argument too
  const mark = xargsReplaceString(inv) ?? '{}';
  if (argv.some((a) => a.includes(mark)))
    return words.map((word) => argv.map((a) => (a === mark ? quote(word) : shellQuote(a.split(mark).join(word)))).join(' '));
  return [[...argv.map(shellQuote), ...words.map(quote)].join(' ')];
}

/** The replace string of the `xargs` that runs `inv` (`-I %`, `-I{}`, `--replace=X`; `-i` and `--replace` alone: `{}`), or null. */
function xargsReplaceString(inv: Invocation): string | null {
  const words = inv.command.words.map((w) => w.value);
  const at = words.findIndex((w) => programName(w) === 'xargs');
  if (at < 0) return null;
  for (let i = at + 1; i < words.length - inv.args.length; i++) {
    const w = words[i]!;
    if (w === '-I') return words[i + 1] ?? null;
    if (w.startsWith('-I')) return w.slice(2);
    if (w.startsWith('--replace=')) return w.slice('--replace='.length);
    if (w === '-i' || w === '--replace') return '{}';
    if (w.startsWith('-i')) return w.slice(2);
  }
  return null;
}

/** A word quoted for a shell but for its glob characters (`.env*` as `'.env'*`): the names it matches, as the shell matched them where it was written. */
function globQuote(word: string): string {
  return word
    .split(/([*?[\]])/)
    .map((part, i) => (i % 2 ? part : part && shellQuote(part)))
    .join('');
}

/**
 * `find ROOTS EXPR | xargs PROGRAM ARGS` (`argv`: what xargs or parallel runs) as the one command
 * it amounts to, `find ROOTS EXPR -exec PROGRAM ARGS {} +` (`{}` where `-I {}` put it), so that
 * the rules for `find -exec` judge what it does with the paths; `ls`, `stat` as the find that lists
 * what they list (printed-names.ts listingAsFind), a word only the shell knows as written (`find
 * "$DIR"`). Null when the stage before is no listing.
 */
function findExecScript(finder: Invocation | null, argv: string[]): string | null {
  const args = finder && (gitNamesAsFind(finder) ?? listingAsFind(finder.program, finder.args));
  if (!args) return null;
  const exec = argv.includes('{}') ? [...argv, ';'] : [...argv, '{}', '+'];
  const quote = (a: Word) => (a.value.includes(UNKNOWN) ? a.raw : a.glob ? globQuote(a.value) : shellQuote(a.value));
  return ['find', ...args.map(quote), '-exec', ...exec.map(shellQuote)].join(' ');
}

/**
 * The names a git name query prints (`git ls-files .env`, `git check-ignore .env.local`, `git
 * status --short .env`: git-name-queries.ts, each path it names shown) as the find that lists
 * them, `find NAMES -maxdepth 0`: what comes out are those names, so `| xargs cat` reads them.
 * Null for any other command, and for a query that names no path (`git ls-files` of the whole
 * project is the project's paths: printed-names.ts).
 */
function gitNamesAsFind(finder: Invocation): Word[] | null {
  if (finder.program !== 'git') return null;
  const named = pathUses(finder).filter((u) => u.access === 'meta');
  return named.length ? [...named.map((u) => u.word), plainWord('-maxdepth'), plainWord('0')] : null;
}

/**
 * The words of a recursive removal `argv` runs: itself, or for a shell given a script (`sh -c 'rm
 * -rf {}'`, `bash -c 'rm -rf "$1"' _`) the recursive rm in that script that takes the names it is
 * handed (`{}` or a variable). Null where no recursive removal takes them.
 */
function recursiveRemoval(argv: string[]): string[] | null {
  if (removesRecursively(argv)) return argv;
  const c = argv.indexOf('-c');
  if (!SHELLS.has(programName(argv[0] ?? '')) || c < 0 || argv[c + 1] === undefined) return null;
  // the home folder does not matter here: only the rm's options and whether it takes the handed names
  for (const cmd of parseShell(argv[c + 1]!, { home: '/' }).commands) {
    const words = cmd.words.map((w) => w.value);
    if (removesRecursively(words) && words.slice(1).some((v) => v.includes('{}') || v.includes(UNKNOWN))) return words;
  }
  return null;
}

/**
 * `cat dirs.txt | xargs rm -rf`, `xargs rm -rf < list`, `xargs -a list rm -rf`, `cat list | parallel
 * rm -rf`: a recursive removal of names read from a file or a program whose output the command
 * line does not tell — any folder, `/` and the home folder among them, as for `rm -rf "$DIR"`.
 * Null where the names are known (a static text, a find, an ls: fedArgumentScripts reads them),
 * come from a listing of the project's paths or are disposable (printed-names.ts), or where nothing feeds the command.
 */
export function unknownNamesRemoval(inv: Invocation, cmd: SimpleCommand, feeder: SimpleCommand | undefined, finderInv: Invocation | null): Finding | null {
  const parallel = inv.program === 'parallel' ? parallelLine(inv.args) : null;
  // `parallel CMD :::: list`: the arguments read from a file (words after `:::` are known, parallelScripts reads them)
  const fileGroups = parallel?.groups && inv.args.some((a) => a.value === '::::' || a.value === '::::+');
  const argv = parallel ? (parallel.groups && !fileGroups ? null : parallel.command) : inv.via.includes('xargs') ? argvOf(inv) : null;
  const removal = argv && recursiveRemoval(argv);
  // `xargs rm -rf <<< build`: a static text's words are known (fedArgumentScripts); `<<< "$DIRS"` is a variable's
  const fed = cmd.redirects.find((r) => r.input !== null);
  const fedInput = fed?.input ?? null;
  // a here-document's text is kept as written: with its delimiter unquoted, `$DIRS` or `` `cmd` `` there is the shell's
  const shellKnows =
    fedInput !== null &&
    (fedInput.includes(UNKNOWN) || (fed!.op.startsWith('<<') && fed!.op !== '<<<' && !/['"\\]/.test(fed!.target?.raw ?? '') && /[$`]/.test(fedInput)));
  if (!removal || (fedInput !== null && !shellKnows)) return null;
  const words = cmd.words.map((w) => w.value);
  const fromFile = fileGroups || cmd.redirects.some((r) => r.op === '<' && r.target) || words.some((v) => /^(-a|--arg-file)(=|$)|^-a./.test(v));
  // a static echo's words are known (fedArgumentScripts); `echo "$DIRS"` is a variable's, as `rm -rf $DIRS`
  const printed = feeder && finderInv ? printedNames(finderInv.program, finderInv.args) : null;
  const source = fromFile
    ? 'a file'
    : fedInput !== null
      ? 'a variable in a here-string or here-document'
      : printed?.names === 'unknown'
        ? `\`${printed.program}\``
        : null;
  if (!source) return null;
  return { rule: 'rm.root', reason: `\`${removal.join(' ')}\` of the names ${source} prints, ${UNKNOWN_NAMES}` };
}

/**
 * Whether `inv` packs or copies the files whose names it reads on stdin, one a line: `cpio -o`
 * (`--create`) and `-p` (`--pass-through`), `tar -T -` (`--files-from=-`), `zip -@`
 * (`--names-stdin`), `rsync --files-from=-`.
 */
function packsNamesFromStdin(inv: Invocation): boolean {
  const a = inv.args.map((w) => w.value);
  const fromStdin = (option: string) => a.some((v, i) => v === `${option}=-` || (v === option && a[i + 1] === '-'));
  switch (inv.program) {
    case 'cpio':
      return a.some((v) => v === '--create' || v === '--pass-through' || /^-[A-Za-z]*[op][A-Za-z]*$/.test(v));
    case 'tar':
    case 'bsdtar':
    case 'gtar':
      return fromStdin('-T') || fromStdin('--files-from') || a.includes('-T-');
    case 'zip':
      return a.includes('-@') || a.includes('--names-stdin');
    case 'rsync':
      return fromStdin('--files-from');
    default:
      return false;
  }
}
