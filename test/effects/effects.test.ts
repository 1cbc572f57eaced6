/**
 * The effects layer: dangerous commands run FOR REAL, through each way an agent's command reaches
 * the shell with axme installed, inside an outer jail that keeps the machine safe
 * (test/effects/jail.ts). After every command the world is checked: canaries, dotfiles, the folder
 * beside the project, the guard's files, refs/memory/main, secrets in the output or copied into a
 * file. Routes:
 * - baseline: `bash -c` with no axme — proves every dangerous case does harm when nothing stops
 *   it (a case that does none is a defect of the corpus) and every everyday case works;
 * - sandbox: `axme sandbox -c '<command>'`;
 * - gemini, codex: the installed hook with the client's payload, then what the client runs (the
 *   command the hook handed back, else the original);
 * - claude-code: the installed hook, then `'<CLAUDE_CODE_SHELL_PREFIX>' '<command>'`.
 * The hook's answer to each case comes from the hook's own entry (runHook of the built bundle) in
 * the route's driver process; a sample of the cases (every BINARY_EVERY-th, the last, and in each
 * family the first that the hook stops and the first it lets through) also goes through the installed hook
 * command — the binary, as the client runs it — whose answer is then the one acted on and must be
 * the in-process one (test/effects/driver.mjs). On the sandbox route each case of the same sample
 * checks the line `axme sandbox -c --print` prints now is the one the driver made, and runs it;
 * `axme sandbox -c` itself runs each family's first case and each corpus' last; the other cases
 * run the command line printed last, with their own command in it. The commands themselves
 * always run for real.
 * A route the product does not provide (no `sandbox` command, no hook, no prefix) is skipped,
 * saying why. Each route's counts (stopped by the hook, by the sandbox, not stopped) are printed.
 */

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DANGEROUS } from './dangerous.ts';
import { EVERYDAY } from './everyday.ts';
import {
  type CaseResult,
  copyWorld,
  type Driver,
  type DriverFacts,
  damage,
  inJail,
  jailUnavailable,
  makeWorld,
  restore,
  startDriver,
  type World,
} from './jail.ts';

const ROUTES = ['baseline', 'sandbox', 'gemini', 'codex', 'claude-code'] as const;
type Route = (typeof ROUTES)[number];

const jailMissing = jailUnavailable();

/** Every how many cases (besides the last, and each family's first stop and first let-through) the hook also runs as the binary. */
const BINARY_EVERY = 16;

/** Whether the `i`-th of `n` cases is in the sample through the binaries: every BINARY_EVERY-th, and the last (what changed since the one before shows there). */
const sampled = (i: number, n: number) => i % BINARY_EVERY === 0 || i === n - 1;

/** What the sample through the hook binary shows wrong: a case it answered otherwise than in-process, a kind of answer it never gave. */
class HookSample {
  private readonly seen = new Set<string>();
  private readonly byBinary = new Set<string>();
  /** on the sandbox route: the families of which `axme sandbox -c` itself ran a case */
  readonly byCommand = new Set<string>();
  readonly problems: string[] = [];
  binary = 0;
  total = 0;
  command = 0;

  add(family: string, r: CaseResult): void {
    if (r.ranBy) {
      this.command++;
      this.byCommand.add(family);
    }
    if (!r.hookBy) return;
    const kind = `${family} ${r.decision === 'deny' || r.decision === 'ask' ? 'stop' : 'let through'}`;
    this.total++;
    this.seen.add(kind);
    if (r.hookBy === 'binary') {
      this.binary++;
      this.byBinary.add(kind);
    }
    if (r.disagree)
      this.problems.push(`${r.id}: the binary answered ${JSON.stringify(r.disagree.binary)}, runHook in-process ${JSON.stringify(r.disagree.process)}`);
  }

  /** The problems, with every kind of answer (family, stop or let through) the binary never gave. */
  check(): string[] {
    return [...this.problems, ...[...this.seen].filter((k) => !this.byBinary.has(k)).map((k) => `no "${k}" answer came from the hook binary`)];
  }
}

/** Why the product does not provide `route` here (null: it does), from what the driver found. */
function missingRoute(route: Route, f: DriverFacts): string | null {
  if (route === 'baseline') return null;
  if (route === 'sandbox')
    return f.sandboxCommand ? null : `axme has no working \`sandbox\` command (axme sandbox --help: ${f.sandboxHelp.trim().slice(0, 200)})`;
  if (!f.hooks[route]) return `axme init --agent ${route} wrote no pre-tool-use hook`;
  if (route === 'claude-code' && !f.prefix) return 'axme init --agent claude-code wrote no CLAUDE_CODE_SHELL_PREFIX into .claude/settings.local.json';
  if (route === 'claude-code' && !f.prefixExists) return `CLAUDE_CODE_SHELL_PREFIX names ${f.prefix}, which does not exist`;
  return null;
}

/** Everything a client or a person would see of the call: the command's output and the hook's. */
function shown(r: CaseResult): string {
  return [r.stdout, r.stderr, r.hook?.stdout, r.hook?.stderr, r.why].filter(Boolean).join('\n');
}

/** How a dangerous case ended on a route. */
function outcome(route: Route, r: CaseResult, harm: string[]): string {
  if (r.error) return 'error';
  if (harm.length) return 'NOT prevented';
  if (r.decision === 'deny') return 'hook (deny)';
  if (r.decision === 'ask') return 'hook (ask)';
  if (route === 'sandbox' || r.prefixed || /\bbwrap\b|\baxme\b.*\bsandbox\b/.test(r.ranAs ?? '')) return 'sandbox';
  return 'ran unsandboxed, no effect';
}

const short = (s: string | undefined, n = 300) => (s ?? '').replace(/\s+/g, ' ').trim().slice(0, n);

async function dangerous(t: TestContext, route: Route, world: World, driver: Driver, sample: HookSample): Promise<void> {
  const counts: Record<string, number> = {};
  const ids: Record<string, string[]> = {};
  const bad: string[] = [];
  // after a restore, the next case through the binaries again
  let restored = false;
  for (const [i, c] of DANGEROUS.entries()) {
    const last = i === DANGEROUS.length - 1;
    const r = await driver.send({ id: c.id, command: c.command, family: c.aim, binary: restored || sampled(i, DANGEROUS.length), last });
    restored = false;
    sample.add(c.aim, r);
    const harm = damage(world, shown(r));
    if (route === 'baseline') {
      const how = harm.length ? 'did harm (as it must)' : 'NO HARM without axme';
      counts[how] = (counts[how] ?? 0) + 1;
      if (!harm.length) bad.push(`${c.id}: \`${c.command}\` changed nothing with no axme at all (exit ${r.code}: ${short(r.stderr)})`);
    } else {
      const how = outcome(route, r, harm);
      counts[how] = (counts[how] ?? 0) + 1;
      (ids[how] ??= []).push(c.id);
      // not a failure (nothing changed), but the sandbox was not in the way: said, so it is seen
      if (how === 'ran unsandboxed, no effect')
        t.diagnostic(`${route}: ${c.id} \`${c.command}\` ran outside the sandbox (hook: ${r.decision}) and changed nothing (exit ${r.code})`);
      if (how === 'NOT prevented' || how === 'error')
        bad.push(
          `${c.id}: \`${c.command}\` — ${harm.join('; ') || short(r.error)} [hook: ${r.decision ?? '-'}${r.ranAs ? ', rewritten' : ''}${r.prefixed ? ', prefix' : ''}]`,
        );
    }
    if (harm.length) {
      restore(world);
      restored = true;
    }
  }
  t.diagnostic(
    `${route}: ${DANGEROUS.length} dangerous cases: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  for (const b of bad) t.diagnostic(`${route}: ${b}`);
  // EFFECTS_LIST=1: which case ended which way
  if (process.env.EFFECTS_LIST) for (const [how, list] of Object.entries(ids)) t.diagnostic(`${route}: ${how}: ${list.join(' ')}`);
  assert.deepEqual(bad, [], route === 'baseline' ? 'corpus cases that do no harm even unguarded' : 'dangerous cases whose effect was not prevented');
}

async function everyday(t: TestContext, route: Route, world: World, driver: Driver, sample: HookSample): Promise<void> {
  const failures: string[] = [];
  let ok = 0;
  for (const [i, c] of EVERYDAY.entries()) {
    const r = await driver.send({ ...c, family: 'everyday', binary: sampled(i, EVERYDAY.length), last: i === EVERYDAY.length - 1 });
    sample.add('everyday', r);
    const harm = damage(world, shown(r), { everyday: true });
    const problems: string[] = [];
    if (r.error) problems.push(`driver error: ${short(r.error)}`);
    if (r.decision === 'deny' || r.decision === 'ask') problems.push(`hook said ${r.decision}: ${short(r.why)}`);
    else if (r.decision === 'hook-error') problems.push(`hook failed: ${short(r.why)}`);
    if (r.ran && r.code !== 0) problems.push(`exit ${r.code}${r.timedOut ? ' (timed out)' : ''}: ${short(`${r.stderr}\n${r.stdout}`, 600)}`);
    if (r.ran && r.check && r.check.code !== 0) problems.push(`its effect is missing (${c.check} -> ${r.check.code}) ${short(r.check.stderr)}`);
    problems.push(...harm);
    if (problems.length) failures.push(`${c.id}: \`${c.command}\`: ${problems.join('; ')}`);
    else ok++;
    if (harm.length) restore(world);
  }
  t.diagnostic(`${route}: ${EVERYDAY.length} everyday cases: ${ok} worked, ${failures.length} failed`);
  for (const f of failures) t.diagnostic(`${route}: ${f}`);
  assert.deepEqual(failures, [], 'everyday commands that did not work');
}

/** The jail itself: nested bubblewrap works, the machine's files cannot be written, the check sees harm. */
async function selfTest(t: TestContext, world: World, driver: Driver): Promise<void> {
  assert.equal(driver.facts.nestedBwrap.code, 0, `bubblewrap inside the jail: ${driver.facts.nestedBwrap.stderr}`);
  const machineFile = fileURLToPath(new URL('../../package.json', import.meta.url));
  const before = readFileSync(machineFile, 'utf8');
  const probe = await inJail(world.root, ['bash', '-c', `echo x >> '${machineFile}'; touch /usr/axme-effects-probe; touch /axme-effects-probe; echo done`]);
  assert.equal(readFileSync(machineFile, 'utf8'), before, 'the jail wrote a file of the machine');
  assert.ok(!existsSync('/usr/axme-effects-probe') && !existsSync('/axme-effects-probe'), 'the jail created a file on the machine');
  assert.match(probe.stderr, /Read-only file system/);
  assert.deepEqual(damage(world, ''), [], 'a fresh world shows no damage');
  const seen = async (command: string) => {
    const r = await driver.send({ id: `self: ${command}`, command });
    const harm = damage(world, shown(r));
    restore(world);
    assert.deepEqual(damage(world, ''), [], `the world is whole again after \`${command}\``);
    return harm;
  };
  assert.deepEqual(await seen('rm -f ~/.bashrc'), ['~/.bashrc is gone']);
  assert.deepEqual(await seen('cat ~/.netrc'), ['the secret ~/.netrc was printed']);
  assert.deepEqual(await seen('base64 .env'), ['the secret ~/work/project/.env was printed']);
  assert.deepEqual(await seen('touch ../outside/new'), ['~/work/outside changed (listing)']);
  assert.deepEqual(await seen('chmod -x .git/hooks/pre-push'), ['guard .git/hooks changed']);
  // what restore() must put back besides a file's bytes: a folder's mode, a file made a folder
  assert.deepEqual(await seen('chmod 500 ../outside/data'), ['~/work/outside changed (listing)']);
  assert.deepEqual(await seen('rm ~/.netrc && mkdir -p ~/.netrc/sub'), ['~/.netrc changed']);
  const moved = await seen('git update-ref refs/memory/main HEAD');
  assert.ok(
    moved.some((h) => h.startsWith('refs/memory/main moved')),
    moved.join('; '),
  );
  assert.deepEqual(await seen('cp keys/server.pem /tmp/k'), ['/tmp/k holds the token of ~/work/project/keys/server.pem']);
  t.diagnostic('self-test: nested bwrap works in the jail; the jail cannot write the machine; the check saw each planted harm');
}

test('effects: dangerous commands run for real are stopped; everyday ones work', {
  skip: jailMissing ?? false,
  concurrency: ROUTES.length,
  timeout: 15 * 60_000,
}, async (t) => {
  const started = Date.now();
  // one world set up (git, axme init, the hooks' first calls), copied for the other routes
  const first = await makeWorld(ROUTES[0]);
  const copies = await Promise.allSettled(ROUTES.slice(1).map((route) => copyWorld(first, route)));
  const worlds = [first, ...copies.flatMap((c) => (c.status === 'fulfilled' ? [c.value] : []))];
  const failed = copies.find((c) => c.status === 'rejected');
  if (failed) {
    await Promise.all(worlds.map((w) => w.cleanup()));
    throw failed.reason;
  }
  await Promise.all(
    ROUTES.map((route, i) =>
      t.test(route, async (t) => {
        const world = worlds[i]!;
        let driver: Driver | undefined;
        try {
          driver = await startDriver(world, route);
          const missing = missingRoute(route, driver.facts);
          if (missing) return t.skip(missing);
          const d = driver;
          const sample = new HookSample();
          if (route === 'baseline') await t.test('self-test of the jail and of the check', (t) => selfTest(t, world, d));
          await t.test('dangerous', (t) => dangerous(t, route, world, d, sample));
          restore(world);
          await t.test('everyday', (t) => everyday(t, route, world, d, sample));
          if (sample.total) {
            t.diagnostic(
              route === 'sandbox'
                ? `${route}: ${sample.total} cases, ${sample.binary} of them with the line \`axme sandbox -c --print\` printed then (${sample.command} through \`axme sandbox -c\` itself), the others through the line it printed last`
                : `${route}: the hook answered ${sample.total} cases in-process, ${sample.binary} of them through its binary too`,
            );
            assert.deepEqual(sample.check(), [], 'the hook binary and its in-process entry');
            if (route === 'sandbox')
              assert.deepEqual(
                [...sample.byCommand].sort(),
                ['everyday', ...new Set(DANGEROUS.map((c) => c.aim))].sort(),
                'each family had a case run by `axme sandbox -c` itself',
              );
          }
          t.diagnostic(`${route}: ${((Date.now() - started) / 1000).toFixed(1)} s since the layer started`);
        } finally {
          await driver?.close();
          await world.cleanup();
        }
      }),
    ),
  );
});
