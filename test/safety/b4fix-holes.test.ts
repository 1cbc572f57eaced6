/**
 * The holes the fourth fresh battery (fresh-battery4.ts) found, each closed in a general way:
 * every row pairs an everyday command that must pass silently with a dangerous neighbour the same
 * fix must catch. The context is context.ts's: the project /home/u/proj on branch main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide, testHoles } from './context.ts';

testHoles({
  // a runner (`npx`, `pnpm dlx`, `bunx`, `uvx`, `npm exec`...) starts a program: the program gets the rules it gets alone
  'the program a runner starts is judged by its words as it is alone': [
    ['npx tsc --noEmit', 'npx nx release --yes'],
    ['npx vitest run', 'npx nx release publish'],
    ['pnpm dlx create-vite my-app', 'pnpm dlx kamal deploy'],
    ['bunx prettier --write src', 'bunx kamal deploy'],
    ['uvx ruff check .', 'uvx mkdocs gh-deploy'],
    ['npx mkdocs serve', 'npx mkdocs gh-deploy'],
    ['npm exec -- nx graph', 'npm exec -- nx release'],
    ['yarn dlx nx run-many -t build', 'yarn dlx nx release'],
    ['yarn nx affected -t test', 'yarn nx release'],
    ['pnpm exec nx show projects', 'pnpm nx release'],
    ['bun x eslint .', 'bun x nx release'],
    ['uv run mkdocs build', 'uv run mkdocs gh-deploy'],
    ['uv tool run mkdocs serve', 'uv tool run mkdocs gh-deploy'],
    ['pipx run mkdocs build', 'pipx run mkdocs gh-deploy'],
    ['poetry run mkdocs build', 'poetry run mkdocs gh-deploy'],
    ['python -m mkdocs build', 'python -m mkdocs gh-deploy'],
    ['bundle exec cap staging deploy', 'bundle exec cap production deploy'],
    ['yarn workspace @acme/web nx build', 'yarn workspace @acme/web nx release'],
    ['npx -p @nx/cli nx graph', 'npx --yes -p nx nx release'],
    // the client's own commands start no program: their operands are package names
    ['yarn add -D release-it', 'yarn dlx release-it'],
    ['pnpm add -D release-please', 'pnpm dlx semantic-release'],
    ['bun add -d release-it', 'bunx release-it'],
    ['yarn why release-it', 'npx np'],
  ],
  // a recursive rm removes at least what the same rm without -r removes: a file or folder inside a system folder
  'a recursive rm inside a system folder is denied as the same rm without -r': [
    ['rm -rf /tmp/build-*', 'sudo rm -rf /usr/local/lib/libacme*'],
    ['rm -rf "$TMPDIR/x"', 'rm -rf /etc/nginx'],
    ['rm -rf ./usr/local', 'rm -rf /opt/app'],
    ['rm -rf ~/.cache/pip', 'rm -rf /var/lib/postgresql/16/main'],
    ['rm -rf /var/tmp/build', 'rm -r /usr/share/doc'],
    ['rm -rf usr/local/bin/node', 'rm -rf /usr/local/bin/node'],
    ['rm -rf /tmp/etc/nginx', 'rm -rf /etc/nginx/sites-enabled/default'],
    ['rm -rf build/usr/lib', 'rm -R /usr/local/lib/acme'],
    ['rm -rf /home/u/proj/opt', 'sudo rm --recursive --force /usr/local/lib/libacme.so'],
  ],
  // `-name X -prune -exec rm` removes what X names and does not go into it; `.` itself is not X
  'a find removes its starting folder only when its expression selects that folder': [
    ['find . -type d -name node_modules -prune -exec rm -rf {} +', 'find . -prune -exec rm -rf {} +'],
    ['find . -name target -prune -exec rm -rf {} +', 'find . -maxdepth 0 -exec rm -rf {} +'],
    [String.raw`find . -name build -prune -exec rm -rf {} \;`, 'find . -delete'],
    ['find . -name node_modules -type d -prune -exec rm -rf {} +', 'find . -type d -prune -exec rm -rf {} +'],
    ["find . -name '*.pyc' -delete", 'find . -type f -delete'],
    ['find . -path ./vendor -prune -o -name "*.orig" -exec rm {} +', 'find . -path ./vendor -prune -o -exec rm -rf {} +'],
    ['find . -name .git -prune -o -name "*.rej" -delete', 'find . -name .git -prune -o -type f -delete'],
    ['find . -name dist -prune -exec rm -rf {} +', "find . -name '.*' -exec rm -rf {} +"],
    ['find ~/.cache -name "*.tmp" -delete', 'find ~ -type f -delete'],
    ['find . -type d -name __pycache__ -prune -exec rm -rf {} +', 'find ~ -mindepth 1 -maxdepth 1 -exec rm -rf {} +'],
    ['find . -type d -empty -delete', 'find ~ -type d -empty -delete'],
  ],
});

describe('what the fixes leave as they were', () => {
  test('the folders themselves stay the removal rule’s, and project paths named like system ones stay free', async () => {
    assert.equal(await decide('rm -rf /etc'), 'deny [rm.root]');
    assert.equal(await decide('sudo rm -rf /usr'), 'deny [rm.root]');
    assert.equal(await decide('rm -f /usr/local/lib/libacme.so'), 'deny [families.system: rm in /usr]');
    assert.equal(await decide('rm -rf /usr/local/lib/libacme.so'), 'deny [families.system: rm in /usr]');
    assert.equal(await decide('cd /tmp && rm -rf usr/lib'), 'allow');
  });
  test('a runner’s own scripts stay unread and its dry runs pass', async () => {
    assert.equal(await decide('npm run release'), 'allow');
    assert.equal(await decide('pnpm run deploy'), 'allow');
    assert.equal(await decide('npx mkdocs gh-deploy --help'), 'allow');
    assert.equal(await decide('nx release --dry-run'), 'allow');
    assert.equal(await decide('npx nx release --dry-run'), 'allow');
    assert.equal(await decide('npx kamal deploy --dry-run'), 'allow');
    assert.equal(await decide('npx nx run-many -t deploy'), 'allow');
    assert.equal(await decide('nx release --yes'), 'deny [families.publish: nx release]');
    assert.equal(await decide('npx nx release --yes'), 'deny [families.publish: nx release]');
  });
  test('a package name runs as its program through every runner', async () => {
    assert.equal(await decide('npx aws-cdk destroy'), 'ask [families.infra: cdk destroy]');
    assert.equal(await decide('npx -p @changesets/cli changeset publish'), 'deny [families.publish: changeset publish]');
  });
});
