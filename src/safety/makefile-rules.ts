import { type Auto, expand, joinValues, MAX_VALUES, shellText, splitArgs, UNKNOWN, unset, type Value, type Vars, words } from './makefile-expand.ts';

/**
 * What `make TARGET` runs of a project's Makefile read from disk (project-scripts.ts): the
 * target's recipe after its prerequisites' (each built once), with the Makefile's variables
 * expanded where the file tells them — `X = …`, `X := …`, `X ?= …`, `X += …`, `make X=…` on the
 * command line, `$@`, `$<`, `$^`, `$(X:.c=.o)` and the cheap functions (`$(wildcard …)`,
 * `$(patsubst …)`, `$(addprefix …)`, `$(shell cmd)` as the shell's `$(cmd)`). A conditional the
 * file decides (`ifdef X` of a variable it sets, `ifeq (a,b)` of known text) takes its branch; one
 * the environment decides keeps both, a variable set in either having both values (each line read
 * once per value: makefile-expand.ts). A variable it never sets is the environment's (unset); what
 * else the file does not tell stays unknown, a word the guard does not know. An `include`d file of
 * the project (`include`, `-include`, `sinclude`) is read in its place, up to MAX_INCLUDES; one
 * outside the folder, or past that, is not (a target only it defines runs nothing the guard sees).
 */

/** A recipe line as written, with whether `make -n` runs it anyway (`+`, `$(MAKE)`). */
interface RecipeLine {
  text: string;
  forced: boolean;
}

/** A rule of the Makefile: its prerequisites and its recipes (a `::` rule, or both branches of a conditional, has several). */
interface Rule {
  prereqs: string[];
  recipes: RecipeLine[][];
}

/** A Makefile read: its rules by target, its pattern rules, its variables, its first goal, and the shell lines parsing it runs. */
export interface Makefile {
  rules: Map<string, Rule>;
  patterns: Array<{ target: string; rule: Rule }>;
  vars: Vars;
  first: string | null;
  /** `X != cmd`, `X := $(shell cmd)`: run whatever the target */
  parseTime: string[];
}

/** One target's recipe, expanded: the lines make hands a shell, one shell each. */
export interface TargetRecipe {
  target: string;
  lines: string[];
}

/** How many targets of one make are read, prerequisites followed as deep as that: past it, the rest is not read (as a Makefile no command reads). */
const MAX_TARGETS = 256;

const ASSIGNMENT = /^\s*(?:(?:export|override|private)\s+)*([^\s:#=$]+|\$[({][^)}]+[)}])\s*(\?=|:::=|::=|:=|\+=|!=|=)\s*(.*)$/;
const RULE = /^([^\t#:=][^#:=]*?)(::?)(?!=)(.*)$/;
const CONDITIONAL = /^\s*(ifeq|ifneq|ifdef|ifndef)\b\s*(.*)$/;

/** How many files one Makefile's `include` lines read, each once: past it, the rest are not read. */
export const MAX_INCLUDES = 16;

/** A file's text as the hook reads it (project-scripts.ts): null when there is none, undefined when it cannot be told. */
type ReadText = (path: string) => string | null | undefined;

/**
 * Reads a Makefile's text; `given`: the variables set on make's command line (they win over the
 * file's); `read`: the files its `include` lines name in `dir` (none above it, none absolute),
 * each read once, at most MAX_INCLUDES.
 */
export function readMakefile(text: string, given: ReadonlyMap<string, string>, dir: string, read?: ReadText): Makefile {
  const vars: Vars = new Map([
    ['MAKE', [{ text: 'make', recursive: false }]],
    ['CURDIR', [{ text: dir, recursive: false }]],
  ]);
  for (const [k, v] of given) vars.set(k, [{ text: v, recursive: false }]);
  const mf: Makefile = { rules: new Map(), patterns: [], vars, first: null, parseTime: [] };
  // each open conditional: what the variables were before it, each branch's variables, whether the file decides it
  const frames: Array<{ before: Vars; ends: Vars[]; decided: boolean | null; live: boolean; parentLive: boolean }> = [];
  let live = true;
  let recipe: RecipeLine[] | null = null;
  let define: { name: string; lines: string[] } | null = null;
  const lines = logicalLines(text);
  const included = new Set<string>();
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at]!;
    if (define) {
      if (/^\s*endef\b/.test(line)) {
        if (live) assign(mf, define.name, '=', define.lines.join('\n'), given);
        define = null;
      } else define.lines.push(line);
      continue;
    }
    if (line.startsWith('\t') && recipe) {
      if (live) recipe.push(recipeLine(line.slice(1)));
      continue;
    }
    const cond = CONDITIONAL.exec(line);
    if (cond) {
      const decided: boolean | null = live ? condition(mf, cond[1]!, cond[2]!, given) : false;
      frames.push({ before: copyVars(mf.vars), ends: [], decided, live: decided !== false, parentLive: live });
      live = live && decided !== false;
      continue;
    }
    if (/^\s*else\b/.test(line) && frames.length) {
      const f = frames.at(-1)!;
      if (f.decided === null && f.parentLive) {
        f.ends.push(mf.vars);
        mf.vars = copyVars(f.before);
      }
      f.live = f.decided === null || f.decided === false;
      // `else ifeq …`: decided as its own conditional would be, within this branch
      const inner = CONDITIONAL.exec(line.replace(/^\s*else\s+/, ''));
      if (inner && f.parentLive && f.decided !== true) {
        const d = condition(mf, inner[1]!, inner[2]!, given);
        if (d === false) f.live = false;
        else if (d === null) f.decided = null;
      }
      live = f.parentLive && f.live;
      continue;
    }
    if (/^\s*endif\b/.test(line) && frames.length) {
      const f = frames.pop()!;
      if (f.decided === null && f.parentLive) {
        f.ends.push(mf.vars);
        mf.vars = mergeVars(f.ends.length > 1 ? f.ends : [...f.ends, f.before]);
      }
      live = f.parentLive;
      continue;
    }
    if (!live || /^\s*(#|$)/.test(line)) continue;
    const def = /^\s*(?:(?:export|override)\s+)*define\s+(\S+)/.exec(line);
    if (def) {
      define = { name: def[1]!, lines: [] };
      continue;
    }
    const inc = /^\s*(?:-include|sinclude|include)\s+(.*)$/.exec(line);
    if (inc && !ASSIGNMENT.test(line)) {
      // the files it names are read in its place, as make reads them
      if (read) lines.splice(at + 1, 0, ...includedLines(mf, inc[1]!, dir, read, included));
      recipe = null;
      continue;
    }
    if (/^\s*-?(include|sinclude|vpath|export|unexport)\b/.test(line) && !ASSIGNMENT.test(line)) {
      recipe = null;
      continue;
    }
    const a = ASSIGNMENT.exec(line);
    if (a) {
      assign(mf, joinValues(expand(mf.vars, a[1]!, null, 0)), a[2]!, a[3]!.trim(), given);
      recipe = null;
      continue;
    }
    const r = RULE.exec(line);
    if (!r) {
      recipe = null;
      continue;
    }
    recipe = addRule(mf, r[1]!, r[3]!);
  }
  return mf;
}

/** A Makefile's lines, each backslash-continued line joined. */
function logicalLines(text: string): string[] {
  return text.replace(/\\\r?\n[ \t]*/g, ' ').split(/\r?\n/);
}

/** The lines of the project's files an `include` names (its words expanded), each file once; a missing or unreadable one adds none. */
function includedLines(mf: Makefile, namesText: string, dir: string, read: ReadText, included: Set<string>): string[] {
  const out: string[] = [];
  for (const name of words(joinValues(expand(mf.vars, namesText.replace(/\s#.*$/, ''), null, 0)))) {
    if (name.includes(UNKNOWN) || name.startsWith('/') || name.split('/').includes('..') || /[*?[]/.test(name) || mayHoldSecrets(name)) continue;
    const file = `${dir}/${name.replace(/^\.\//, '')}`;
    if (included.has(file) || included.size >= MAX_INCLUDES) continue;
    included.add(file);
    const text = read(file);
    if (typeof text === 'string') out.push(...logicalLines(text));
  }
  return out;
}

/**
 * An included file whose values the guard would quote in a reason yet may not show: a dotfile
 * (`include .env`), a name that says it holds secrets. Not read: its targets run nothing the guard sees.
 */
function mayHoldSecrets(name: string): boolean {
  const base = name.slice(name.lastIndexOf('/') + 1);
  return base.startsWith('.') || /env|secret|credential|token|passw|\.key$|\.pem$/i.test(base);
}

/** A recipe line with `@`, `-` and `+` taken off its start. */
function recipeLine(raw: string): RecipeLine {
  const lead = /^[\s@+-]*/.exec(raw)![0];
  return { text: raw.slice(lead.length), forced: lead.includes('+') || /\$[({]MAKE[)}]/.test(raw) };
}

/**
 * Records `targets: prereqs [; recipe]` (`::` rules and a target named again add their recipes);
 * returns the recipe its tab lines go into, none for a target-specific variable.
 */
function addRule(mf: Makefile, targetText: string, rest: string): RecipeLine[] | null {
  const semi = rest.indexOf(';');
  let prereqText = semi < 0 ? rest : rest.slice(0, semi);
  // `target: VAR = value`: a target-specific variable, no rule
  if (/^\s*(?:(?:export|override|private)\s+)*[A-Za-z_][\w.-]*\s*(?:\?|:|::|\+|!)?=/.test(prereqText)) return null;
  // `objs: %.o: %.c`: a static pattern rule's prerequisites are its pattern's
  const stat = prereqText.indexOf(':');
  if (stat >= 0) prereqText = prereqText.slice(stat + 1);
  const recipe: RecipeLine[] = semi < 0 ? [] : [recipeLine(rest.slice(semi + 1))];
  const targets = words(joinValues(expand(mf.vars, targetText, null, 0)));
  const prereqs = words(joinValues(expand(mf.vars, prereqText.replace(/\|/g, ' '), null, 0)));
  const shared: Rule = { prereqs, recipes: [recipe] };
  for (const t of targets) {
    if (t.includes(UNKNOWN)) continue;
    if (t.includes('%')) {
      mf.patterns.push({ target: t, rule: shared });
      continue;
    }
    mf.first ??= t.startsWith('.') && !t.includes('/') ? null : t;
    const old = mf.rules.get(t);
    if (!old) mf.rules.set(t, { prereqs: [...prereqs], recipes: [recipe] });
    else {
      old.prereqs.push(...prereqs);
      old.recipes.push(recipe);
    }
  }
  return recipe;
}

/**
 * Sets a variable as `op` does (a conditional the environment decides keeps each branch's apart:
 * readMakefile). `?=` takes the file's value: the environment's would win, but an agent's
 * command line sets none of it unseen.
 */
function assign(mf: Makefile, name: string, op: string, raw: string, given: ReadonlyMap<string, string>): void {
  if (given.has(name) || name.includes(UNKNOWN)) return;
  const old = mf.vars.get(name);
  if (op === '?=') {
    if (!old) mf.vars.set(name, [{ text: raw, recursive: true }]);
    return;
  }
  if (op === '!=') {
    mf.parseTime.push(...expand(mf.vars, raw, null, 0).map(shellText));
    mf.vars.set(name, [{ text: UNKNOWN, recursive: false }]);
    return;
  }
  if (op === '+=') {
    const base = old ?? [{ text: unset(name), recursive: false }];
    mf.vars.set(
      name,
      base.map((v) => ({ text: `${v.text} ${v.recursive ? raw : joinValues(expand(mf.vars, raw, null, 0))}`, recursive: v.recursive })),
    );
    return;
  }
  if (op === '=') {
    mf.vars.set(name, [{ text: raw, recursive: true }]);
    return;
  }
  // `:=`, `::=`, `:::=`: expanded now; a `$(shell …)` in it runs now
  if (/\$[({]shell\s/.test(raw)) mf.parseTime.push(...expand(mf.vars, raw, null, 0).map((t) => `: ${shellText(t)}`));
  mf.vars.set(
    name,
    expand(mf.vars, raw, null, 0).map((text) => ({ text, recursive: false })),
  );
}

/** Whether a conditional's test holds: true or false where the file tells, null where the environment decides. */
function condition(mf: Makefile, kind: string, arg: string, given: ReadonlyMap<string, string>): boolean | null {
  if (kind === 'ifdef' || kind === 'ifndef') {
    const name = arg.trim();
    const v = mf.vars.get(name);
    // a variable the file never sets: the environment's one may be set (null), another is not
    if (!v && !given.has(name)) return unset(name) ? null : kind === 'ifndef';
    const set = given.has(name) || v!.every((x) => x.text !== '');
    if (!set && !v!.every((x) => x.text === '')) return null;
    return kind === 'ifdef' ? set : !set;
  }
  const paren = /^\((.*)\)\s*$/.exec(arg.trim());
  const pair = paren ? splitArgs(paren[1]!) : /^["'](.*)["']\s+["'](.*)["']\s*$/.exec(arg.trim())?.slice(1);
  if (pair?.length !== 2) return null;
  const [a, b] = [expand(mf.vars, pair[0]!, null, 0), expand(mf.vars, pair[1]!, null, 0)];
  if (a.length !== 1 || b.length !== 1 || /[$\uE001]/.test(a[0]! + b[0]!)) return null;
  return (a[0]!.trim() === b[0]!.trim()) === (kind === 'ifeq');
}

function copyVars(vars: Vars): Vars {
  return new Map(vars);
}

/** The variables after a conditional the environment decides: each one's values in every branch. */
function mergeVars(ends: Vars[]): Vars {
  const out: Vars = new Map();
  for (const name of new Set(ends.flatMap((v) => [...v.keys()]))) {
    const values: Value[] = [];
    for (const v of ends) for (const x of v.get(name) ?? [{ text: unset(name), recursive: false }]) if (!values.some((y) => y.text === x.text)) values.push(x);
    out.set(name, values.length > MAX_VALUES ? [{ text: UNKNOWN, recursive: false }] : values);
  }
  return out;
}

/**
 * What `make` runs for `goals` (none: the first rule's target), each target after its
 * prerequisites, once each; `dryRun` (`make -n`): only the lines it runs anyway. Null where the
 * Makefile names no such target and no pattern makes it.
 */
export function targetRecipes(mf: Makefile, goals: readonly string[], dryRun: boolean): TargetRecipe[] {
  const out: TargetRecipe[] = [];
  const done = new Set<string>();
  const defaultGoal = mf.vars.get('.DEFAULT_GOAL')?.[0]?.text.trim() || mf.first;
  const visit = (target: string, depth: number): void => {
    if (done.has(target) || done.size >= MAX_TARGETS || depth > MAX_TARGETS) return;
    done.add(target);
    const found = ruleFor(mf, target);
    if (!found) return;
    const { rule, stem } = found;
    for (const p of rule.prereqs) visit(p, depth + 1);
    const auto: Auto = {
      '@': target,
      '<': rule.prereqs[0] ?? '',
      '^': [...new Set(rule.prereqs)].join(' '),
      '+': rule.prereqs.join(' '),
      '?': rule.prereqs.join(' '),
      '*': stem ?? UNKNOWN,
      '|': '',
    };
    const lines: string[] = [];
    for (const recipe of rule.recipes)
      for (const line of recipe)
        if (!dryRun || line.forced) for (const text of expand(mf.vars, line.text, auto, 0)) if (text.trim()) lines.push(shellText(text));
    if (lines.length) out.push({ target, lines });
  };
  for (const g of goals.length ? goals : defaultGoal ? [defaultGoal] : []) visit(g, 0);
  return out;
}

/** The rule that makes `target`: its own, else the first pattern rule whose pattern it matches, with the prerequisites the stem gives. */
function ruleFor(mf: Makefile, target: string): { rule: Rule; stem: string | null } | null {
  const own = mf.rules.get(target);
  if (own && own.recipes.some((r) => r.length)) return { rule: own, stem: null };
  for (const { target: pattern, rule } of mf.patterns) {
    const at = pattern.indexOf('%');
    const [pre, post] = [pattern.slice(0, at), pattern.slice(at + 1)];
    if (target.length < pre.length + post.length || !target.startsWith(pre) || !target.endsWith(post)) continue;
    const stem = target.slice(pre.length, target.length - post.length);
    return { rule: { prereqs: [...(own?.prereqs ?? []), ...rule.prereqs.map((p) => p.replace('%', stem))], recipes: rule.recipes }, stem };
  }
  return own ? { rule: own, stem: null } : null;
}
