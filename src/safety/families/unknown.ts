import { FAMILIES, type FamilyName } from '../../model/families.ts';
import { UNKNOWN_COMMANDS, type VerbRule } from '../../model/unknown-commands.ts';
import type { Invocation } from '../command.ts';
import { informational } from '../informational.ts';
import { runnerInner } from '../runners.ts';
import { UNKNOWN } from '../shell.ts';
import { type Hit, values } from './args.ts';
import { knowsInfra } from './infra.ts';
import { readSql } from './infra-sql.ts';
import { localVerb } from './local-verbs.ts';
import { messageVerb } from './message-verbs.ts';
import { knowsPublish, normalize } from './publish.ts';
import { onlyNonProduction } from './publish-deploy.ts';
import type { FamilyContext } from './types.ts';

/**
 * How a command no family check knows is judged (docs/safety.md, "How an unknown command is
 * judged"; the data is model/families.ts and model/unknown-commands.ts). Its subcommand words — the leading words that look
 * like commands (`kubernetes cluster delete`, `container:release`, split at `-` and `:`) — are
 * read for a family's verbs: a verb alone (`deploy`, `destroy`) does the family's thing; a
 * targeted verb (`delete`, `push`) only toward one of the family's targets, named by a
 * subcommand word or an option (`delete cluster`, `--stack-name`), or, for uploads, a registry
 * (`docker://…`, `ghcr.io/acme/app:1`). Statements a program is handed (`-c 'DROP DATABASE x'`,
 * `FLUSHALL`) count wherever they are. The program a runner starts (runners.ts: `npx nx
 * release`, `uvx mkdocs gh-deploy`) is judged as if run alone. Not judged: programs whose words
 * are data, scripts or resource names (UNKNOWN_COMMANDS.exempt), programs the family's own check
 * knows, a project script's runner (`deno task deploy`, `nx run-many -t deploy`), listings
 * (`release list`), a verb a program gives to a local step (local-verbs.ts: `rebar3 release`), help, versions and dry runs, and a publish verb aimed at a non-production
 * environment (`cap staging deploy`).
 */
export function checkUnknown(inv: Invocation, ctx: FamilyContext): Array<{ family: FamilyName; hit: Hit }> {
  let program = normalize(inv.program);
  let args = values(inv);
  // `npx nx release`, `uvx mkdocs gh-deploy`, `bundle exec cap deploy`: the program a runner starts, as if run alone
  for (let depth = 0; depth < MAX_RUNNERS; depth++) {
    if (informational(program, args)) return [];
    const inner = runnerInner(program, args);
    if (!inner) break;
    program = normalize(inner[0]);
    args = inner[1];
  }
  // a first word that is an option is a fragment (a line of an array: `--configuration release`), no program
  if (program.includes(UNKNOWN) || program.includes('=') || program.startsWith('-')) return [];
  if (EXEMPT.has(program) && !PUSHING_RUNNERS.has(program)) return [];
  if (informational(program, args)) return [];
  const out: Array<{ family: FamilyName; hit: Hit }> = [];
  // `pack build … --publish`, `earthly --push +release`: a build told to push what it makes, whatever its verb
  const pushed = /[/.]/.test(program) ? null : publishFlag(args);
  if (pushed && ctx.policy.families.publish !== 'off' && !knowsPublish(program)) out.push({ family: 'publish', hit: verbHit(`${program} ${pushed}`, true) });
  if (EXEMPT.has(program)) return out;
  const path = subcommands(args);
  if (path[0] !== undefined && RUNNERS.has(path[0])) return out;
  for (const f of FAMILIES) {
    if (!('unknown' in f) || ctx.policy.families[f.name] === 'off') continue;
    if (f.name === 'publish' ? knowsPublish(program) : f.name === 'infra' ? knowsInfra(program) : false) continue;
    const hit = judge(program, args, path, f.unknown, f.name === 'publish');
    if (hit) out.push({ family: f.name, hit });
  }
  return out;
}

/** How many runners deep `npx uvx …` is followed. */
const MAX_RUNNERS = 4;
const EXEMPT: ReadonlySet<string> = new Set(UNKNOWN_COMMANDS.exempt);
const RUNNERS: ReadonlySet<string> = new Set(UNKNOWN_COMMANDS.runners);
/** Task runners among the exempt whose own option pushes what their targets build (`earthly --push`): that option is still read. */
const PUSHING_RUNNERS: ReadonlySet<string> = new Set(['earthly']);
const READS: ReadonlySet<string> = new Set(UNKNOWN_COMMANDS.readVerbs);
const NAMES: ReadonlySet<string> = new Set(UNKNOWN_COMMANDS.nameVerbs);

/** A word that may be a subcommand: letters and digits joined by `-`, `_`, `:` (no path, file, URL or value). */
const COMMAND_WORD = /^[A-Za-z][A-Za-z0-9]*(?:[-_:][A-Za-z0-9]+)*$/;

/** The leading subcommand words: after the global options, up to the first option or word that is not a command. */
function subcommands(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (out.length >= UNKNOWN_COMMANDS.depth || a === '--') break;
    if (a.startsWith('-')) {
      if (out.length) break;
      // a global option: the word after it may be its value (`journalctl -u deploy`, `kamal -d production deploy`)
      if (!a.includes('=') && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) i++;
      continue;
    }
    if (!COMMAND_WORD.test(a)) break;
    out.push(a);
  }
  return out;
}

/**
 * A subcommand word's parts: split at `-` and `:` (`gh-deploy`, `container:release`); a `_` joins
 * one name — a function's, a test's, a task's or a file's (`deploy_docs`, `test_publish`) — not a
 * verb and its object.
 */
const parts = (word: string) => word.split(/[-:]/).flatMap(pascalWords);
/**
 * An API action's name in PascalCase (`DeleteInstance`, `TerminateInstances`: Alibaba Cloud's and
 * Tencent Cloud's CLIs) as its words in lower case; a word with no capital inside (`Release`) stays as written.
 */
const pascalWords = (word: string) => (/^[A-Z][a-z]+[A-Z]/.test(word) ? word.split(/(?=[A-Z])/).map((w) => w.toLowerCase()) : [word]);
/** An option's name words: split at `_` too (`--stack_name`). */
const optionParts = (name: string) => name.split(/[-_:]/);

/** A rule's word lists as sets, made once. */
const sets = new WeakMap<VerbRule, { verbs: ReadonlySet<string>; targeted: ReadonlySet<string>; targets: ReadonlySet<string> }>();
function setsOf(rule: VerbRule) {
  let s = sets.get(rule);
  if (!s) sets.set(rule, (s = { verbs: new Set(rule.verbs), targeted: new Set(rule.targeted), targets: new Set(rule.targets) }));
  return s;
}

/** The verb a command's subcommand words hold for one family, as a hit; null when they hold none or the command only reads. */
function judge(program: string, args: readonly string[], path: readonly string[], rule: VerbRule, publish: boolean): Hit | null {
  const { verbs, targeted, targets } = setsOf(rule);
  // a deploy or cloud CLI's destroying verb needs no target: what it is handed is the resource (model/infra-clis.ts)
  const own = Object.hasOwn(rule.programs ?? {}, program) ? rule.programs![program]! : [];
  for (let i = 0; i < path.length; i++) {
    // a verb this program gives to a local step (`rebar3 release`, `prisma migrate deploy`: local-verbs.ts)
    if (localVerb(program, path, i)) continue;
    // a message sent to a topic's subscribers (`aws sns publish`: message-verbs.ts), not a release
    if (messageVerb(program, path, i)) continue;
    const ws = parts(path[i]!);
    const strong = ws.find((w) => verbs.has(w)) ?? own.find((v) => v === path[i] || (!/[-:]/.test(v) && ws.includes(v)));
    const aimed = strong ? undefined : ws.find((w) => targeted.has(w));
    if (!strong && !aimed) continue;
    // a listing beside the verb (`release list`, `deploy list-deployments`) or before it only reads;
    // after a verb that takes a name (`rails new release`, `systemctl restart deploy`) the verb is that name
    const first = (w: string) => [w, parts(w)[0]!];
    if (path.slice(0, i).some((w) => first(w).some((x) => READS.has(x) || NAMES.has(x)))) return null;
    if (path[i + 1] !== undefined && first(path[i + 1]!).some((x) => READS.has(x))) return null;
    if (ws.some((w) => READS.has(w))) return null;
    const words = path.flatMap(parts);
    if (publish && onlyNonProduction(words)) return null;
    const shown = `${program} ${path.slice(0, i + 1).join(' ')}`;
    if (strong) return verbHit(shown, publish);
    if (aimedAt(args, path, i, aimed!, targets, rule)) return verbHit(shown, publish);
  }
  const said = statement(args, rule);
  return said
    ? {
        rule: `${program} ${said.what}`,
        reason: `\`${program}\` is handed \`${said.what}${said.on ? ` ${said.on}` : ''}\`, which deletes data in bulk — a whole database, schema or key space, or a table, its rows or a column; only a backup brings it back`,
      }
    : null;
}

/**
 * A build's option that publishes what it makes: `--push`, `--publish` as a flag (`=true`,
 * `=always`), or followed by a word that is no port and no `never`/`false`/`dry-run` (`--publish
 * always`), an exporter's `--output …,push=true` (BuildKit's buildctl); `--publish 8080:80` (a container's port) and `--push=false` publish nothing, and a
 * script of the project (`./scripts/release.sh --publish`, a path or a file's name) is its own.
 */
function publishFlag(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    const [name, value] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    // BuildKit's and buildx's exporter told to push (`--output type=image,name=…,push=true`)
    if ((name === '--output' || name === '-o') && /(?:^|,)push=true(?:,|$)/.test(value ?? args[i + 1] ?? '')) return `${name} push=true`;
    if (name !== '--push' && name !== '--publish') continue;
    const next = value ?? args[i + 1];
    if (next !== undefined && (/^\d/.test(next) || /^(never|false|no|none|off|0|dry-?run)$/i.test(next))) continue;
    return name;
  }
  return null;
}

function verbHit(shown: string, publish: boolean): Hit {
  return publish
    ? { rule: shown, reason: `\`${shown}\` publishes, releases or deploys by its name: what it puts where others take it from cannot be called back` }
    : { rule: shown, reason: `\`${shown}\` deletes or tears down infrastructure by its name — a cluster, database, stack or project and the data in it` };
}

/** Whether a targeted verb aims at one of the family's targets: a subcommand word, an option's name, or (uploads) a registry. */
function aimedAt(args: readonly string[], path: readonly string[], at: number, verb: string, targets: ReadonlySet<string>, rule: VerbRule): boolean {
  // resource words before the verb (`cluster delete`), whole words after it (`delete cluster`), option names (`--stack-name`)
  if (path.slice(0, at + 1).some((w) => parts(w).some((p) => targets.has(p)))) return true;
  if (path.slice(at + 1).some((w) => targets.has(w))) return true;
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('--') && optionParts(a.slice(2).split('=')[0]!).some((p) => targets.has(p))) return true;
  }
  if (!rule.registries) return false;
  // a copy's destination is its last operand; a push or upload names the registry anywhere
  const operands = args.filter((a) => !a.startsWith('-'));
  const candidates = verb === 'copy' || verb === 'cp' || verb === 'sync' ? operands.slice(-1) : operands;
  return candidates.some((a) => isRegistry(a, rule.registries!));
}

/** An image reference on a registry (`ghcr.io/acme/app:1`, `localhost:5000/x`) or a registry URL (`docker://`, `oci://`). */
function isRegistry(word: string, schemes: readonly string[]): boolean {
  if (schemes.some((s) => word.startsWith(s))) return true;
  return /^(?:(?:[a-z0-9-]+\.)+[a-z]{2,}|localhost)(?::\d+)?\/[A-Za-z0-9._/-]+(?::[\w.-]+|@sha256:[0-9a-f]+)?$/.test(word);
}

/** What drops a whole database, schema or key space, whatever the table it names. */
const WHOLE = new Set(['DROP DATABASE', 'DROP SCHEMA', 'DROP KEYSPACE', 'DROP OWNED']);

/**
 * What the code an option hands the program destroys (`-c 'BEGIN; DROP DATABASE x'`, `cqlsh -e
 * 'TRUNCATE users'`, `--eval=db.dropDatabase()`): its SQL read as SQL (infra-sql.ts, as a database
 * shell's is: a whole database, schema or key space, or a table named), or a statement of the
 * family's; or an argument that is the statement alone (`FLUSHALL`). The rule's words (`TRUNCATE`)
 * and what it names (`users`).
 */
function statement(args: readonly string[], rule: VerbRule): { what: string; on: string } | null {
  const options = new Set(rule.statementOptions ?? []);
  const codes: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const code = eq > 0 && options.has(a.slice(0, eq)) ? a.slice(eq + 1) : i > 0 && options.has(args[i - 1]!) ? a : null;
    if (code !== null) codes.push(code);
    const text = (code ?? a).toLowerCase().replace(/\s+/g, ' ').trim();
    for (const s of rule.statements ?? []) {
      if (code === null) {
        // a command word (`FLUSHALL`, `flushall async`), not prose that starts like one
        if (text === s || text.startsWith(`${s} `)) return { what: s.toUpperCase(), on: '' };
        continue;
      }
      const at = text.indexOf(s);
      if (at < 0) continue;
      // a call (`db.dropDatabase(`) stands anywhere; a command starts the code or follows `;`
      if (s.endsWith('(')) return { what: `${s.slice(0, -1)}()`, on: '' };
      const before = text.slice(0, at).trimEnd();
      if ((before === '' || before.endsWith(';')) && !/[a-z0-9_]/.test(text.charAt(at + s.length))) return { what: s.toUpperCase(), on: '' };
    }
  }
  // a table's rows or columns only where the statement names the table (`-q update` is no SQL)
  const wipe = codes.length ? readSql(codes, { mysql: false, cql: true }).wipes.find((w) => WHOLE.has(w.what) || w.tables.length) : undefined;
  return wipe ? { what: wipe.what, on: wipe.tables.slice(0, 3).join(', ') } : null;
}
