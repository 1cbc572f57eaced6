/**
 * The team server in the real clients: a bare repository served by `axme serve --http` with a
 * write token and a read token, two clones whose Claude Code, Codex and Gemini CLI reach it through
 * the entries `axme init --mcp-url <url> --mcp-token-env AXME_TOKEN` writes. What each model really
 * receives: axme's tools listed over HTTP, results as axme's text, one client's save found by
 * another client in the other clone, a read token's write refused in words, the server stopped
 * mid-session (nothing lost), and a token unset or wrong — what the client and the model see, and
 * what `axme doctor` names.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { axmeIn } from '../cli-in-process.ts';
import { git } from '../helpers.ts';
import { anthropic, resultOfStep as claudeResult, requestText } from './anthropic.ts';
import { describeRun, runClaude, type StreamEvent, sessionStartContext } from './claude-code.ts';
import { type CodexHome, codexHome, runCodex } from './codex.ts';
import { explain, runGemini } from './gemini.ts';
import { contentsText, geminiErrorWords, resultOfStep as geminiResult, geminiWire } from './gemini-wire.ts';
import { type ScriptedModel, type SeenRequest, startModel } from './model-server.ts';
import { inputItems, messages, openai, resultOf } from './openai.ts';
import { axmeAsDevDependency, type ClientWorld } from './project.ts';
import { type Team, TOKEN_ENV, teamServer } from './team-server.ts';
import { notReadable } from './week-tools.ts';

const TEST = { timeout: 600_000 };
/** Three decisions: saved in Claude Code (clone A), in Codex (clone B), and refused to Gemini CLI's read token (clone A). */
const ROUNDING = { title: 'Invoices round half to even', decision: 'Every invoice total rounds half to even.' };
const REFUNDS = { title: 'Refunds go back to the card', decision: 'A refund is paid to the card the order was paid with.' };
const COUPONS = { title: 'Coupons never stack', decision: 'One coupon an order.' };
/** A token of the right shape that the server never issued. */
const WRONG = `axme_${'w'.repeat(43)}`;

/** The server's store holds the decision `slug` (read from the bare repository itself, not through the server). */
function served(team: Team, slug: string): boolean {
  return git(team.repo, ['ls-tree', '--name-only', 'refs/memory/main', `decisions/${slug}.md`]).trim() !== '';
}

/** The team server's line of `axme doctor --json` in a clone, run with the clone's `env`. */
async function doctorTeamLine(w: ClientWorld, env: NodeJS.ProcessEnv): Promise<{ status: string; detail: string; fix?: string }> {
  const r = await axmeIn(w.project, ['doctor', '--json'], { env: { HOME: w.home, ...env } });
  const checks = JSON.parse(r.stdout).checks as Array<{ name: string; status: string; detail: string; fix?: string }>;
  const line = checks.find((c) => c.name === 'mcp team server');
  assert.ok(line, r.stdout);
  return line;
}

/** The init line of a Claude Code run: its MCP servers and tools. */
const claudeInit = (events: StreamEvent[]) =>
  events.find((e) => e.type === 'system' && e.subtype === 'init') as StreamEvent & {
    mcp_servers?: Array<{ name: string; status: string }>;
    tools?: string[];
  };

/** The tools Codex's tool_search found in the axme namespace (the turn after the search). */
function codexAxmeTools(turn: SeenRequest | undefined): string[] {
  if (!turn) return [];
  return inputItems(turn)
    .filter((i) => i.type === 'tool_search_output' && Array.isArray(i.tools))
    .flatMap((i) => i.tools as Array<{ type?: string; name?: string; tools?: Array<{ name?: string }> }>)
    .filter((t) => t.type === 'namespace' && t.name === 'mcp__axme')
    .flatMap((t) => (t.tools ?? []).map((f) => String(f.name)));
}

describe('the team server (axme serve --http) in the real clients', () => {
  let team: Team;
  /** two teammates' clones, each with all three clients pointed at the server */
  let a: ClientWorld;
  let b: ClientWorld;
  const models: Partial<Record<'claude' | 'codex' | 'gemini', ScriptedModel>> = {};
  let codex: CodexHome;
  before(async () => {
    team = await teamServer();
    a = await team.clone('claude-code,codex,gemini');
    b = await team.clone('claude-code,codex,gemini');
    // Codex's hooks start axme with a short environment: axme is found as a devDependency
    axmeAsDevDependency(b);
    models.claude = await startModel(anthropic);
    models.codex = await startModel(openai);
    models.gemini = await startModel(geminiWire);
    codex = await codexHome(b, models.codex);
  });
  after(async () => {
    for (const m of Object.values(models)) await m.close();
    await team?.close();
  });

  test(
    'Claude Code (clone A, write token): the tools over HTTP, a save and a search as text; the server stopped mid-session: a clear error, the save kept',
    TEST,
    async (t) => {
      const m = models.claude!;
      const run = await runClaude(a, m, 'Record how invoices round, then check it is there.', {
        env: { [TOKEN_ENV]: team.write },
        steps: [
          { tool: 'mcp__axme__axme_save_decision', args: ROUNDING },
          { tool: 'mcp__axme__axme_search_kb', args: { query: 'invoice rounding' } },
          // the server goes away between two calls of the session
          { tool: 'mcp__axme__axme_search_kb', args: { query: 'invoice rounding' }, before: () => team.server.stop() },
          { text: 'Done.' },
        ],
      });
      assert.equal(run.code, 0, describeRun(run));
      assert.equal(m.remaining(), 0, describeRun(run));
      await t.test('the client lists axme over HTTP, connected, with its tools', () => {
        const init = claudeInit(run.events);
        assert.deepEqual(
          init?.mcp_servers?.filter((s) => s.name === 'axme').map((s) => s.status),
          ['connected'],
          JSON.stringify(init?.mcp_servers),
        );
        for (const tool of ['mcp__axme__axme_save_decision', 'mcp__axme__axme_search_kb']) assert.ok(init?.tools?.includes(tool), `${tool} not listed`);
      });
      await t.test("a save and a search reach the model as axme's text", () => {
        const saved = claudeResult(m.turns, 0);
        assert.equal(notReadable(saved.text), null, saved.text);
        assert.match(saved.text, /^Decision saved: D-\d+ - Invoices round half to even/, saved.text);
        const found = claudeResult(m.turns, 1);
        assert.equal(found.isError, false, found.text);
        assert.match(found.text, /^# 1 of 1 matches for "invoice rounding"\n1\. D-\d+ Invoices round half to even \[decision\]/, found.text);
      });
      await t.test("the server stopped: the next call fails with the client's own words, and the save is kept in the server's repository", () => {
        const gone = claudeResult(m.turns, 2);
        assert.equal(gone.isError, true, gone.text);
        // Claude Code 2.1.332's words: the refused connection, or the server it has since marked gone (the stop closed its stream)
        assert.match(gone.text, /ECONNREFUSED: Unable to connect|MCP server "axme" is not connected/, gone.text);
        assert.ok(served(team, 'invoices-round-half-to-even'), 'the decision saved before the stop is in the repository');
      });
      await team.restart();
    },
  );

  test("Codex (clone B, write token), after the server's restart: the tools over HTTP, Claude Code's save found, its own save as text", TEST, async (t) => {
    const m = models.codex!;
    m.script([
      { tool: 'tool_search', args: { query: 'axme', limit: 50 } },
      { tool: 'axme_search_kb', args: { query: 'invoice rounding' } },
      { tool: 'axme_save_decision', args: REFUNDS },
      { text: 'Done.' },
    ]);
    const from = m.turns.length;
    const run = await runCodex(b, codex, 'What do we do about invoice rounding? Record how refunds are paid.', { env: { [TOKEN_ENV]: team.write } });
    assert.equal(run.code, 0, run.stderr.slice(-3000));
    const turns = m.turns.slice(from);
    await t.test("tool_search finds axme's tools, served over HTTP", () => {
      const tools = codexAxmeTools(turns[1]);
      for (const tool of ['axme_save_decision', 'axme_search_kb']) assert.ok(tools.includes(tool), `${tool} not found: ${tools.join(', ')}`);
    });
    await t.test("what Claude Code saved in clone A is found from clone B, after the restart, as axme's text", () => {
      const found = resultOf(turns, 'invoice rounding') ?? '';
      assert.match(found, /1\. D-\d+ Invoices round half to even \[decision\]\n\s+Every invoice total rounds half to even\./, found);
      assert.doesNotMatch(found, /^\s*[{[]/, 'not JSON');
    });
    await t.test('its own save, as text, in the repository', () => {
      const saved = resultOf(turns, REFUNDS.title) ?? '';
      assert.match(saved, /Decision saved: D-\d+ - Refunds go back to the card/, saved);
      assert.ok(served(team, 'refunds-go-back-to-the-card'));
    });
  });

  test("Gemini CLI (clone A, read token): Codex's save found; a save refused in words that name the scope it needs", TEST, async (t) => {
    const m = models.gemini!;
    m.script([{ tool: 'axme_search_kb', args: { query: 'refund card' } }, { tool: 'axme_save_decision', args: COUPONS }, { text: 'Done.' }]);
    const from = m.turns.length;
    const run = await runGemini(a, m, 'How are refunds paid? Record that coupons never stack.', { env: { [TOKEN_ENV]: team.read } });
    assert.equal(run.code, 0, explain(run));
    const turns = m.turns.slice(from);
    await t.test("the model is offered axme's tools, served over HTTP", () => {
      const offered = geminiWire.toolNames(turns[0]!);
      for (const tool of ['mcp_axme_axme_save_decision', 'mcp_axme_axme_search_kb'])
        assert.ok(offered.includes(tool), `${tool} not offered: ${offered.join(', ')}`);
    });
    await t.test("what Codex saved in clone B is found from clone A, as axme's text", () => {
      const found = geminiResult(turns, 0);
      assert.equal(found.error, null, found.text);
      assert.match(found.output ?? '', /D-\d+ Refunds go back to the card \[decision\]/, found.text);
    });
    await t.test('the read token: the save is refused with the scope it needs and who can give it, and nothing is written', () => {
      const refused = geminiResult(turns, 1);
      // Gemini CLI wraps any tool error in JSON around the result (real-clients.md): axme's words are inside
      const words = geminiErrorWords(refused.error ?? '') ?? '';
      assert.match(
        words,
        /^not allowed: token reviewer has scope read, and axme_save_decision needs write: the call was not run, nothing was saved/,
        refused.text,
      );
      assert.match(words, /axme token add <name> --scope write/);
      assert.ok(!served(team, 'coupons-never-stack'));
    });
  });

  test(
    "the token variable unset (Claude Code, clone B): the server is failed, the model has no axme tool but axme's session start says why; doctor names the variable",
    TEST,
    async (t) => {
      const m = models.claude!;
      const from = m.turns.length;
      const run = await runClaude(b, m, 'Search the knowledge.', {
        env: {},
        steps: [{ tool: 'mcp__axme__axme_search_kb', args: { query: 'invoice rounding' } }, { text: 'Done.' }],
      });
      assert.equal(run.code, 0, describeRun(run));
      await t.test('what the client and the model see', () => {
        const init = claudeInit(run.events);
        assert.deepEqual(
          init?.mcp_servers?.filter((s) => s.name === 'axme').map((s) => s.status),
          ['failed'],
        );
        assert.match(claudeResult(m.turns.slice(from), 0).text, /No such tool available: mcp__axme__axme_search_kb/);
      });
      await t.test('the session start tells the model what is wrong and what the user does', () => {
        const ctx = sessionStartContext(requestText(m.turns[from]!));
        assert.match(ctx, /axme's team server http:\/\/127\.0\.0\.1:\d+\/mcp cannot be used in this session: \$AXME_TOKEN is not set here/, ctx);
        assert.match(ctx, /Tell the user: export AXME_TOKEN=/, ctx);
      });
      await t.test('axme doctor in the clone names the unset variable and the fix', async () => {
        const line = await doctorTeamLine(b, {});
        assert.equal(line.status, 'problem');
        assert.match(line.detail, /\$AXME_TOKEN is not set here/);
        assert.match(line.fix ?? '', /^export AXME_TOKEN=/);
      });
    },
  );

  test(
    "a wrong token (Codex, clone B; Gemini CLI, clone A): what the client and the model see, axme's session start says why; doctor names the refused token",
    TEST,
    async (t) => {
      const env = { [TOKEN_ENV]: WRONG };
      const cm = models.codex!;
      cm.script([{ tool: 'tool_search', args: { query: 'axme', limit: 50 } }, { text: 'Done.' }]);
      const cFrom = cm.turns.length;
      // a user's Codex does not require the server (the test's CODEX_HOME does, to wait for it)
      const c = await runCodex(b, codex, 'Search the knowledge.', { env, args: ['-c', 'mcp_servers.axme.required=false'] });
      const gm = models.gemini!;
      gm.script([{ tool: 'axme_search_kb', args: { query: 'invoice rounding' } }, { text: 'Done.' }]);
      const gFrom = gm.turns.length;
      const g = await runGemini(a, gm, 'Search the knowledge.', { env });
      const refused =
        /axme's team server http:\/\/127\.0\.0\.1:\d+\/mcp cannot be used in this session: the server refused the token in \$AXME_TOKEN \(401.*Tell the user: set \$AXME_TOKEN to a valid token/s;
      await t.test(
        "Codex: it starts without axme (an rmcp error line, naming axme's realm only), its tool search finds no axme tool; axme's session start says why",
        () => {
          assert.equal(c.code, 0, c.stderr.slice(-3000));
          assert.match(c.stderr, /AuthRequired.*realm=\\"axme\\", error=\\"invalid_token\\"/, c.stderr.slice(-3000));
          const turns = cm.turns.slice(cFrom);
          assert.deepEqual(codexAxmeTools(turns[1]), []);
          const dev = messages(turns[0]!, 'developer').join('\n');
          assert.match(dev, refused, dev.slice(-2000));
          assert.doesNotMatch(dev, new RegExp(WRONG));
        },
      );
      await t.test("Gemini CLI: it says nothing of the refusal, the model is told the tool does not exist; axme's session start says why", () => {
        assert.equal(g.code, 0, explain(g));
        // (its stderr names axme's hooks, not the server's refusal)
        assert.doesNotMatch(g.stderr, /401|unauthori[sz]ed|invalid_token|MCP ERROR/i, 'Gemini CLI 0.61 is silent about a server that refused it');
        const turns = gm.turns.slice(gFrom);
        const r = geminiResult(turns, 0);
        assert.match(r.text, /Tool "axme_search_kb" not found/, r.text);
        const first = contentsText(turns[0]!).join('\n');
        assert.match(first, refused, first.slice(0, 3000));
      });
      await t.test('axme doctor in the clone names the refused token and the fix, never the token', async () => {
        const line = await doctorTeamLine(a, env);
        assert.equal(line.status, 'problem');
        assert.match(line.detail, /the server refused the token in \$AXME_TOKEN \(401/);
        assert.match(line.fix ?? '', /set \$AXME_TOKEN to a valid token/);
        assert.doesNotMatch(JSON.stringify(line), new RegExp(WRONG));
      });
    },
  );
});
