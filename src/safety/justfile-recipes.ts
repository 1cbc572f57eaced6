import { UNKNOWN_SHELL_WORD } from './makefile-expand.ts';

/**
 * What `just RECIPE` runs of a project's justfile read from disk (project-scripts.ts): the
 * recipe's lines after its dependencies' (`build: clean (lint "x")`), and the ones after its `&&`,
 * each once; a line's `{{name}}` is a variable's value where the file sets it to a string, else a
 * word the guard does not know (a parameter, an expression). A recipe whose `#!` line names a
 * shell is one script; one for another interpreter is not read. Backticks in variables (`x :=
 * \`cmd\``) run whatever the recipe.
 */

interface Recipe {
  name: string;
  /** how many arguments it takes after its name: a number, or 'rest' for a variadic parameter */
  params: number | 'rest';
  before: string[];
  after: string[];
  body: string[];
}

/** A justfile read: its recipes by name, the first one (or the one marked `[default]`), its string variables, the shell lines its backticks run. */
export interface Justfile {
  recipes: Map<string, Recipe>;
  first: string | null;
  vars: Map<string, string>;
  parseTime: string[];
}

/** One recipe's shell lines, each run by a shell of its own (a `#!` recipe: one script). */
export interface RecipeRun {
  name: string;
  lines: string[];
}

const HEADER = /^@?([A-Za-z_][\w-]*)((?:[ \t]+[^:]*?)?)[ \t]*:(?!=)(.*)$/;
const ASSIGN = /^(?:export[ \t]+)?([A-Za-z_][\w-]*)[ \t]*:=[ \t]*(.*)$/;
const SHELLS = /^#!\s*(?:\/usr\/bin\/env\s+)?(?:\S*\/)?(?:ba|z|da|k)?sh\b/;
const MAX_RECIPES = 128;

/** Reads a justfile's text; null where it has no recipe. */
export function readJustfile(text: string): Justfile | null {
  const jf: Justfile = { recipes: new Map(), first: null, vars: new Map(), parseTime: [] };
  let current: Recipe | null = null;
  let markedDefault = false;
  for (const line of text.split(/\r?\n/)) {
    if (current && (/^[ \t]+\S/.test(line) || (!line.trim() && current.body.length))) {
      current.body.push(line.replace(/^[ \t]+/, ''));
      continue;
    }
    current = null;
    if (/^\s*(#|$)/.test(line) || /^(set|alias|import|mod)\s/.test(line)) continue;
    if (/^\[.*\bdefault\b.*\]/.test(line)) markedDefault = true;
    if (line.startsWith('[')) continue;
    const a = ASSIGN.exec(line);
    if (a) {
      const value = a[2]!.trim();
      const str = /^'([^']*)'$|^"([^"\\]*)"$/.exec(value);
      if (str) jf.vars.set(a[1]!, str[1] ?? str[2]!);
      for (const m of value.matchAll(/`([^`]*)`/g)) jf.parseTime.push(m[1]!);
      continue;
    }
    const h = HEADER.exec(line);
    if (!h) continue;
    const params = h[2]!.trim().split(/\s+/).filter(Boolean);
    const [depsBefore, depsAfter = ''] = h[3]!.split('&&');
    current = {
      name: h[1]!,
      params: params.some((p) => /^[+*]/.test(p)) ? 'rest' : params.length,
      before: dependencies(depsBefore!),
      after: dependencies(depsAfter),
      body: [],
    };
    jf.recipes.set(current.name, current);
    if (markedDefault || jf.first === null) jf.first = current.name;
    markedDefault = false;
  }
  return jf.recipes.size ? jf : null;
}

/** A recipe's dependencies as written (`clean (lint "x")`): their names. */
function dependencies(text: string): string[] {
  return [...text.matchAll(/\(\s*([A-Za-z_][\w-]*)[^)]*\)|([A-Za-z_][\w-]*)/g)].map((m) => (m[1] ?? m[2])!);
}

/**
 * What `just` runs for the words after its options (none: the default recipe): each recipe named,
 * its arguments skipped, with its dependencies before and after it, each recipe once.
 */
export function justRecipes(jf: Justfile, words: readonly string[]): RecipeRun[] {
  const out: RecipeRun[] = jf.parseTime.length ? [{ name: '(its variables)', lines: jf.parseTime }] : [];
  const done = new Set<string>();
  const visit = (name: string): void => {
    const r = jf.recipes.get(name);
    if (!r || done.has(name) || done.size >= MAX_RECIPES) return;
    done.add(name);
    for (const d of r.before) visit(d);
    const lines = recipeLines(jf, r);
    if (lines.length) out.push({ name, lines });
    for (const d of r.after) visit(d);
  };
  const goals: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const r = jf.recipes.get(words[i]!);
    if (!r) break;
    goals.push(r.name);
    if (r.params === 'rest') break;
    i += r.params;
  }
  for (const g of words.length ? goals : jf.first ? [jf.first] : []) visit(g);
  return out;
}

/** A recipe's lines as the shell reads them: `{{x}}` a string variable's value, else unknown; a `#!` shell recipe one script. */
function recipeLines(jf: Justfile, r: Recipe): string[] {
  const body = r.body.map((l) => l.replace(/\{\{\{\{/g, '{{').replace(/\{\{([^}]*)\}\}/g, (_, e: string) => jf.vars.get(e.trim()) ?? UNKNOWN_SHELL_WORD));
  while (body.length && !body.at(-1)!.trim()) body.pop();
  if (body[0]?.startsWith('#!')) return SHELLS.test(body[0]) ? [body.slice(1).join('\n')] : [];
  return body.map((l) => l.replace(/^[@-]+/, '')).filter((l) => l.trim() && !l.startsWith('#'));
}
