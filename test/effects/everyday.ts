/**
 * Everyday commands for the effects layer: what an agent runs all day in a project. Through every
 * route each must be let through (no deny, no ask), exit 0, and have its effect: `check` runs after
 * it, in the jail without axme, and must exit 0. They run in this order in one project (a later one
 * may rely on an earlier one's branch or file); the project is the one in test/effects/project.ts.
 */
export interface EverydayCase {
  id: string;
  command: string;
  check?: string;
}

// the marker as its own paragraph of the message: the commit-msg hook reads it there (not as a shell comment)
const M = '-m "#!axme pr=none repo=acme/app"';
/** The commit-msg hook ran: it turned the marker into trailers. */
const HOOKED = "git log -1 --format=%B | grep -q '^Axme-PR: none'";

const cases: [string, string?][] = [
  // build, test, scripts
  ['npm run build', 'test -f dist/out.js'],
  ['npm test'],
  ['npm run -s lint'],
  ['node build.mjs && ls dist', 'test -f dist/out.js'],
  ['make build', 'test -f dist/out.js'],
  ['make test'],
  ['make -s clean', '! test -e dist'],
  ['bash scripts/run.sh'],
  ['chmod +x scripts/run.sh && ./scripts/run.sh', 'test -x scripts/run.sh'],
  // node and python writing and reading project files
  ["node -e \"require('fs').writeFileSync('gen.txt', 'generated')\"", 'grep -q generated gen.txt'],
  ["node -e \"const fs = require('fs'); fs.mkdirSync('out/deep', {recursive: true}); fs.writeFileSync('out/deep/a.json', '{}')\"", 'test -f out/deep/a.json'],
  ['node -e "console.log(process.version)"'],
  ["echo 'console.log(40 + 2)' > tmp.js && node tmp.js && rm tmp.js", '! test -e tmp.js'],
  ['python3 -c "print(\'hello from python\')"'],
  ["python3 -c \"import json; print(json.load(open('package.json'))['name'])\""],
  ["python3 -c \"import os; os.makedirs('cache/py', exist_ok=True); open('cache/py/x', 'w').write('1')\"", 'test -f cache/py/x'],
  ['perl -pi -e "s/1\\.0\\.0/1.0.1/" src/util.js', 'grep -q 1.0.1 src/util.js'],
  // npm, offline, local packages
  ['npm install --offline --no-audit --no-fund ./local-pkg', 'test -f node_modules/local-pkg/package.json && grep -q local-pkg package.json'],
  ['node -e "console.log(require(\'local-pkg\')())"'],
  [
    'npm pack ./local-pkg --pack-destination /tmp >/dev/null && npm install --offline --no-audit --no-fund /tmp/local-pkg-1.0.0.tgz',
    'test -f node_modules/local-pkg/index.js',
  ],
  ['npm ls --depth=0'],
  ['rm -rf node_modules/.cache', '! test -e node_modules/.cache'],
  // git on a feature branch, with the project's git hooks running
  [
    `git checkout -q -b feat/x && echo '- x' >> CHANGELOG.md && git commit -q -am "docs: note x" ${M}`,
    `test "$(git branch --show-current)" = feat/x && git log -1 --format=%s | grep -q "docs: note x" && ${HOOKED}`,
  ],
  ['git status --short'],
  ['git log --oneline -5'],
  ['git diff --stat HEAD~1'],
  ['echo wip >> README.md && git stash -q && git stash list', 'git stash list | grep -q stash@ && ! grep -q wip README.md'],
  ['git stash pop -q', 'grep -q wip README.md'],
  [`git add -A && git commit -q -m "chore: generated files" ${M}`, `git log -1 --format=%s | grep -q "chore: generated files" && ${HOOKED}`],
  ['git branch feat/y && git branch --list', 'git rev-parse -q --verify refs/heads/feat/y'],
  ['git switch -q -c feat/z', 'test "$(git branch --show-current)" = feat/z'],
  [`echo z > z.txt && git add z.txt && git commit -q -m "feat: z" ${M}`, `git log -1 --format=%s | grep -q "feat: z" && ${HOOKED}`],
  ['git show --stat HEAD'],
  ['git rev-parse HEAD'],
  ['git log -1 --format=%B'],
  // files in the project
  ['mkdir -p dist && cp src/*.js dist/', 'test -f dist/index.js && test -f dist/util.js'],
  ["sed -i 's/Hello/Hi/' src/index.js", 'grep -q Hi src/index.js'],
  ['touch src/new.js && rm src/new.js', '! test -e src/new.js'],
  ['mv src/util.js src/utils.js && mv src/utils.js src/util.js', 'test -f src/util.js'],
  ["find . -name '*.log' -not -path './node_modules/*' -delete", '! test -e debug.log'],
  ['rm -rf build && mkdir build && echo ok > build/status', 'test -f build/status'],
  ["printf 'a\\nb\\n' > list.txt && xargs -a list.txt echo", 'test -f list.txt'],
  ['ln -s src/index.js entry.js && cat entry.js >/dev/null', 'test -L entry.js'],
  // /tmp, HOME caches, archives
  ['echo data > /tmp/effects-work.txt && cat /tmp/effects-work.txt', 'test -f /tmp/effects-work.txt'],
  ['cat /tmp/effects-work.txt', 'true'],
  ['tar czf /tmp/src.tgz src && tar tzf /tmp/src.tgz', 'test -s /tmp/src.tgz'],
  ['cp -r src /tmp/src-copy && diff -r src /tmp/src-copy'],
  ['mkdir -p ~/.cache/tool && echo x > ~/.cache/tool/c', 'test -f ~/.cache/tool/c'],
  // reading
  ['cat README.md'],
  ['ls ~'],
  ['ls -la ~/work'],
  ['cat ~/.gitconfig'],
  ['ls ~/work/outside && cat ~/work/outside/notes.txt'],
  ['grep -rn TODO src'],
  ['rg -n function src'],
  ['wc -l src/*.js'],
  ["find . -name '*.js' -not -path './node_modules/*' | sort"],
  ['head -n 3 package.json && cat .gitignore'],
  ['which node npm git && node --version && npm --version'],
  ['echo "$HOME" && id -u && pwd'],
  ['date +%Y >/dev/null && uname -s'],
];

export const EVERYDAY: EverydayCase[] = cases.map(([command, check], i) => ({
  id: `everyday-${String(i + 1).padStart(3, '0')}`,
  command,
  ...(check ? { check } : {}),
}));
