/**
 * An agent's first day in a project: commands that make, list, ask about or search for a
 * secret's name, or open a template of one, show none of its content and pass (docs/safety.md,
 * "Secret file names"); each beside a neighbour through which the content does come out, which
 * stays denied. Last, the kernel sandbox over a real folder: it hides the same names the parser
 * denies, a template of a secret not among them.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, test } from 'node:test';
import { isSecretName } from '../../src/model/sandbox.ts';
import { evaluate } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { treeSecrets } from '../../src/sandbox/policy.ts';
import { decide, ROOT, safetyContext, testHoles } from './context.ts';

testHoles({
  // venv, virtualenv, uv and conda make the folder and write into it; they open no file of that name
  "a virtual environment's folder is made, not read": [
    ['python -m venv .env', 'python3 .env'],
    ['python3 -m venv .env && source .env/bin/activate', 'python3 -m venv .venv && source .env'],
    ['virtualenv .env', 'python3 -m json.tool .env'],
    ['uv venv .env', 'uv venv --config-file .env.local .venv'],
    ['python -m virtualenv .env', 'python -m dotenv -f .env list'],
    ['python3.11 -I -m venv --prompt proj --upgrade-deps .env', 'python3.11 -m venv .venv; . .env.local'],
    ['virtualenv -p python3 .env.local', 'virtualenv -p python3 .venv && cat .env.local'],
    ['uv venv --python 3.12 .env', 'uv run --env-file .env python app.py'],
    ['conda create -y -p ./.env python=3.11', 'conda env create -p ./.venv -f .env'],
  ],
  // check-ignore, ls-files, ls-tree, check-attr and status print names and states; status -v prints the diff
  "asking git about a secret's name": [
    ['git check-ignore .env.local', 'git diff .env.local'],
    ['git check-ignore -v .env', 'git log -p -- .env'],
    ['git check-ignore -q .env && echo ignored', 'git show HEAD:.env'],
    ['git ls-files --error-unmatch .env', 'git add .env'],
    ['git status --short .env.local', 'git status -v .env.local'],
    ['git status --porcelain -- .env.local', 'git blame .env.local'],
    ['git ls-tree HEAD .env', 'git cat-file -p HEAD:.env'],
    ['git check-attr -a .env', 'git grep -n KEY -- .env'],
    // what a name query prints into a word is the name it was asked about
    ['git ls-files --error-unmatch .env.local', 'cat $(git ls-files .env.local)'],
    ['git ls-files .env | wc -l', 'git ls-files .env | xargs cat'],
    ['git check-ignore .env | grep -q .', 'git check-ignore .env | xargs cat'],
    ['git status --short .env | head', 'git ls-files -z .env.local | xargs -0 -I{} cp {} /tmp/x'],
    ['git check-ignore -q .env || echo .env >> .gitignore', 'source "$(git check-ignore .env)"'],
  ],
  // a secret's name followed by .example, .sample, .template, .dist or .defaults is a template; a name after it is a secret again
  'a template of a secret is no secret': [
    ['cat .env.local.example', 'cat .env.local.example.bak'],
    ['cat .env.development.sample', 'cat .env.development'],
    ['cp .env.production.template .env.production', 'cp .env.production .env.production.template'],
    ['cat config/.env.test.dist', 'cat config/.env.example.local'],
    ['cat .env.defaults', 'mv .env.local .env.local.example'],
    ['diff .env.local.example .env.example', 'diff .env.local.example .env.local'],
    ['cat .env.*.example', 'cat .env.*'],
    ['head -5 deploy/id_ed25519.sample', 'head -5 deploy/id_ed25519'],
  ],
  // grep, rg and git grep read their file operands; the pattern (first operand, -e, --regexp) is text
  "a searcher's pattern is no path it reads": [
    ["grep -q '.env.local' .gitignore", 'grep KEY .env'],
    ['grep -qxF .env .gitignore || echo .env >> .gitignore', 'grep -qxF KEY .env || echo KEY=1 >> .env'],
    ["rg -n '.env.local' .gitignore", 'rg KEY .env.local'],
    ['grep -rn "process.env" src', "grep -r --include='.env*' KEY ."],
    ['grep -n -e .env -e .env.local .gitignore .dockerignore', 'grep -e KEY .env'],
    ['grep -c -- .env.local .gitignore', 'grep -f.env.local .gitignore'],
    ['egrep -n --regexp=.env.production .gitignore', 'egrep --file .env.production .gitignore'],
    ['fgrep .env.local .gitignore', 'grep .env* .gitignore'],
    ['rg -F -e .env.local -g .gitignore', "rg -g '.env*' KEY"],
    ['rg --files-with-matches .env.local .', 'rg -f .env.local .gitignore'],
    ['git grep -n .env.local', 'git grep -f .env.local'],
    ['git grep -e .env -- .gitignore', 'git grep -e KEY -- .env'],
    ['git log --oneline -S .env.local', 'git log -p -- .env.local'],
    ['git log --oneline --grep=.env', 'git log --oneline -p -- .env'],
  ],
  // what the docs name as fine: a test, a listing, the file's mode and times
  'a secret is looked at without being read': [
    ['ls -la .env*', 'wc -l .env'],
    ['test -f .env && echo yes', 'test -f .env && cat .env'],
    ['[ -e .env.local ]', '[ -e .env.local ] && . .env.local'],
    ['stat .env', 'source .env'],
  ],
});

test('the Read tool opens a template of a secret, not the secret', async () => {
  const read = async (name: string) => (await evaluate({ tool: 'Read', input: { file_path: `${ROOT}/${name}` } }, defaultPolicy(), safetyContext())).decision;
  assert.equal(await read('.env.local.example'), 'allow');
  assert.equal(await read('config/.env.development.sample'), 'allow');
  assert.equal(await read('.env.local'), 'deny');
  assert.equal(await read('.env.local.example.bak'), 'deny');
});

test("a virtual environment made over axme's own state is a change of it", async () => {
  // venv writes into its folder (`--clear` empties it first): the guarded .claude/settings.json with it
  assert.match(await decide('python3 -m venv --clear .claude'), /^deny \[axme\.self\]/);
  assert.match(await decide('virtualenv .claude'), /^deny \[axme\.self\]/);
});

const tree = realpathSync(mkdtempSync(join(tmpdir(), 'axme-firstday-')));
after(() => rmSync(tree, { recursive: true, force: true }));

test('the sandbox hides a secret and not its template, as the parser reads them', () => {
  const secrets = ['.env.local', '.env.local.example.bak', '.env.example.local', 'id_rsa.old'];
  const templates = ['.env.local.example', '.env.development.sample', '.env.production.template', '.env.test.dist', '.env.defaults', 'id_rsa.example'];
  for (const name of [...secrets, ...templates]) writeFileSync(join(tree, name), 'x');
  assert.deepEqual(
    treeSecrets(tree)
      .map((p) => basename(p))
      .sort(),
    [...secrets].sort(),
  );
  assert.deepEqual(templates.filter(isSecretName), []);
});
