/**
 * What a package runner starts gets every rule, not only the families': each row pairs an
 * everyday command through a runner, a wrapper of the npm world (`shx`, `cross-env`, `dotenv`) or
 * a removal program (`rimraf`, `del-cli`) that must pass with a dangerous neighbour the removal,
 * git and path rules must catch as they catch the bare command. The context is context.ts's: the
 * project /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { defaultPolicy } from '../../src/safety/policy.ts';
import { decide, safetyContext, testHoles } from './context.ts';

testHoles({
  // `yarn exec`, `pnpm exec`, `npm exec --`, `bunx`, `poetry run`, `uv run`, `bundle exec`: the program they start is the program
  'the program a runner starts gets the removal rule': [
    ['yarn exec eslint .', 'yarn exec rm -rf ~'],
    ['pnpm exec tsc --noEmit', 'pnpm exec rm -rf ~'],
    ['npm exec -- prettier --check .', 'npm exec -- rm -rf ~'],
    ['bunx prettier --write src', 'bunx rm -rf ~'],
    ['poetry run pytest', 'poetry run rm -rf ~'],
    ['uv run ruff check .', 'uv run rm -rf ~'],
    ['bundle exec rspec', 'bundle exec rm -rf ~'],
    ['sudo -u app bundle exec rake assets:precompile', 'sudo bundle exec rm -rf /etc'],
    ['npx uvx ruff check .', 'npx uvx rm -rf ~'],
    // an env file the runner hands what it starts is judged as before the peel: read when that shows it (env-files.ts)
    ['uv run pytest', 'uv run --env-file .env python app.py'],
    ['bun run --env-file=.env.local dev', 'bun run --env-file=.env.local printenv'],
  ],
  // `npx -c '<line>'`, `npm exec -c '<line>'`: a shell line, as `sh -c`
  'a runner handed a shell line runs it as a shell does': [
    ["npx -c 'echo $npm_package_version'", 'npx -c "rm -rf ~"'],
    ["npm exec -c 'tsc --noEmit'", "npm exec -c 'rm -rf ~'"],
    ["npm exec --call 'eslint .'", "npm exec --call='rm -rf ~'"],
    ["npx -c 'eslint . && tsc'", "npx -y -c 'tsc && git push -f origin main'"],
  ],
  // `shx cmd`, `cross-env VAR=v cmd`, `dotenv -- cmd`: wrappers that run the command after them
  'the npm wrappers run the command after them': [
    ['npx shx mkdir -p dist', 'npx shx rm -rf ~'],
    ['shx cp -r assets dist', 'shx rm -rf ~'],
    ['npx cross-env NODE_ENV=test vitest run', 'npx cross-env X=1 rm -rf ~'],
    ['cross-env NODE_ENV=production webpack', 'cross-env NODE_ENV=production rm -rf /etc'],
    // cross-env-shell runs its words as a shell line
    ['npx cross-env-shell NODE_ENV=test "vitest run"', 'npx cross-env-shell X=1 "rm -rf ~"'],
    ['cross-env-shell "tsc && vite build"', 'cross-env-shell "tsc && rm -rf /etc"'],
    ['npx dotenv -- next build', 'npx dotenv -- rm -rf ~'],
    ['dotenv -c development -- vite build', 'dotenv -c development -- rm -rf ~'],
    ['npx dotenv-cli -v FOO=1 -- tsc', 'npx dotenv-cli -v FOO=1 -- rm -rf ~'],
    // the file dotenv reads is judged as before: read when what it runs shows it (env-files.ts)
    ['npx dotenv -e .env.test -- jest', 'npx dotenv -e .env.test -- printenv'],
    ['dotenv -- printenv NODE_ENV', 'dotenv -e .env -- printenv'],
  ],
  // `rimraf`, `del-cli`/`del`: `rm -rf` of their operands
  'a removal program is a recursive rm of its operands': [
    ['npx rimraf node_modules dist', 'npx rimraf ~'],
    ['npx rimraf ./build', 'npx rimraf /etc'],
    ['rimraf coverage', 'rimraf ~'],
    ['pnpm dlx rimraf .turbo', 'pnpm dlx rimraf ~'],
    ['bunx rimraf dist', 'bunx rimraf ~'],
    ['npx rimraf --glob "packages/*/dist"', 'npx rimraf --glob "/home/u/*"'],
    ['npx del-cli dist', 'npx del-cli ~'],
    // the shell expands the tilde (a quoted one is a file named `~`, and del's globs expand none)
    ["del-cli 'dist/**' '~/**'", "del-cli ~/'**'"],
    ['npx del build', 'npx del .git'],
    ['npx rimraf@5 dist', 'npx rimraf@5 --no-preserve-root /tmp/x'],
    // a pattern is the program's to expand, braces too; find's `{}` is no pattern
    ["npx rimraf 'packages/{a,b}/dist'", "npx rimraf '{/home/u,dist}'"],
    ['find . -name dist -exec npx rimraf {} +', "npx rimraf --glob '*'"],
    ['npx rimraf ~/.cache/eslint', 'npx rimraf .git/axme'],
  ],
  // a trash moves its operands to the bin: taken away as `mv` takes them
  'a trash moves its operands away as mv does': [
    ['npx trash-cli dist', 'npx trash-cli ~'],
    ['trash old.log', 'trash ~'],
    ['trash-put build', 'trash-put /home/u/proj'],
  ],
});

describe('the git and path rules see the program a runner starts', () => {
  for (const [command, rule] of [
    ['yarn exec git push -f origin main', /^deny \[git\./],
    ['npx git push --force origin main', /^deny \[git\./],
    ['pnpm exec cat .env.local', /^deny \[secrets\.paths/],
    ['npx shx cat .env.local', /^deny \[secrets\.paths/],
    ['npx cross-env X=1 git push -f origin main', /^deny \[git\./],
  ] as const)
    test(command, async () => assert.match(await decide(command), rule));
});

describe('a list entry spelled with the runner still matches the command through it', () => {
  test('a denied prefix `npx prisma migrate reset` denies it; an allowed prefix `npx prisma` exempts it', async () => {
    const base = defaultPolicy();
    const denying = { ...base, deniedPrefixes: [...base.deniedPrefixes, 'npx prisma migrate reset'] };
    const v = await evaluateCommand('npx prisma migrate reset --force', denying, safetyContext());
    assert.equal(v.rule, 'bash.deniedPrefixes: npx prisma migrate reset');
    const allowing = { ...base, allowedPrefixes: ['npx prisma'] };
    assert.equal((await evaluateCommand('npx prisma migrate reset --force', allowing, safetyContext())).decision, 'allow');
    // the allowed prefix never exempts from the removal rule
    assert.equal((await evaluateCommand('npx prisma migrate reset && npx rimraf ~', allowing, safetyContext())).rule, 'rm.root');
  });
});

testHoles({
  // what xargs hands a removal program, and a find's -exec of one, as for rm -rf
  'a removal program handed names by xargs or find': [
    ['echo dist | xargs rimraf', 'cat list | xargs rimraf'],
    ['git ls-files -o | xargs rimraf', 'cat list | xargs npx rimraf'],
    ['find . -name dist -exec rimraf {} +', 'find . -exec rimraf {} +'],
    ['find . -type d -name build -exec del-cli {} +', 'find ~ -exec del-cli {} +'],
  ],
});
