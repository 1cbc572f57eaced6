/**
 * The interpreter family (src/safety/families/interpreter.ts): interpreter one-liners whose code
 * shells out to, or re-implements, a dangerous command are checked as that command.
 *
 * Two tables: verdicts through `evaluateCommand` — each dangerous one-liner next to a harmless
 * neighbour — and `interpreterScripts` itself, a command line in, the shell command lines its code
 * would run out. The context is corpus.test.ts's: project /home/u/proj on main, home /home/u.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_RULES } from '../../src/model/safety-defaults.ts';
import { unwrap } from '../../src/safety/command.ts';
import { evaluateCommand } from '../../src/safety/evaluate.ts';
import { interpreterScripts } from '../../src/safety/families/interpreter.ts';
import { defaultPolicy, type Policy, policyFromRules } from '../../src/safety/policy.ts';
import { parseShell } from '../../src/safety/shell.ts';
import { HOME, safetyContext } from './context.ts';

const ctx = safetyContext;

/** [dangerous one-liner, the rule it trips (substring), a harmless neighbour] */
const PAIRS: Array<[string, string, string]> = [
  // python
  [`python -c "import os; os.system('rm -rf /')"`, 'rm.root', `python -c "import os; os.system('rm -rf build')"`],
  [`python3 -Sc "import os; os.system('npm publish')"`, 'npm publish', `python3 -Sc "import os; os.system('npm pack')"`],
  [
    `python -c "import subprocess; subprocess.run(['git', 'push', '--force', 'origin', 'main'])"`,
    'git',
    `python -c "import subprocess; subprocess.run(['git', 'status'])"`,
  ],
  [
    `python -c "import subprocess as sp; sp.check_output('cargo publish', shell=True)"`,
    'cargo publish',
    `python -c "import subprocess as sp; sp.check_output('cargo build', shell=True)"`,
  ],
  [`python -c "from subprocess import run; run('rm -rf /'.split())"`, 'rm.root', `python -c "from subprocess import run; run('ls -la'.split())"`],
  [`python -c "import shutil; shutil.rmtree('/usr')"`, 'rm.root', `python -c "import shutil; shutil.rmtree('build', ignore_errors=True)"`],
  [
    `python -c "import shutil; from pathlib import Path; shutil.rmtree(Path.home())"`,
    'rm.root',
    `python -c "import shutil; from pathlib import Path; shutil.rmtree(Path.home() / 'proj' / 'build')"`,
  ],
  [
    `python -c "import shutil, os; shutil.rmtree(os.environ['HOME'])"`,
    'rm.root',
    `python -c "import shutil, os; shutil.rmtree(os.path.join(os.environ['HOME'], 'proj', 'dist'))"`,
  ],
  [`python -c "import os; os.unlink(os.path.expanduser('~/.ssh/id_ed25519'))"`, 'secrets.paths', `python -c "import os; os.unlink('build/out.txt')"`],
  [`python -c "open('/home/u/.aws/credentials').read()"`, 'secrets.paths', `python -c "print(open('package.json').read())"`],
  [`python -c "open('/home/u/.bashrc', 'a').write('x')"`, 'bashrc', `python -c "open('notes.txt', 'a').write('x')"`],
  [`python -c "import os; os.execvp('npm', ['npm', 'publish'])"`, 'npm publish', `python -c "import os; os.execvp('npm', ['npm', 'test'])"`],
  [`python -c "exec('import os; os.system(\\"rm -rf ~\\")')"`, 'rm.root', `python -c "exec('print(1)')"`],
  [`python -c "import os; os.system(f'rm -rf {os.environ[\\"HOME\\"]}')"`, 'rm.root', `python -c "import os; os.system(f'rm -rf {target}')"`],
  // node, bun, deno
  [`node -e "require('child_process').execSync('git push -f origin main')"`, 'git', `node -e "require('child_process').execSync('git status')"`],
  [
    `node -e "const cp = require('child_process'); cp.spawnSync('rm', ['-rf', '/'])"`,
    'rm.root',
    `node -e "const cp = require('child_process'); cp.spawnSync('rm', ['-rf', 'dist'])"`,
  ],
  [
    `node -e "require('child_process').spawn('sh', ['-c', 'npm publish'])"`,
    'npm publish',
    `node -e "require('child_process').spawn('sh', ['-c', 'npm test'])"`,
  ],
  [
    `node --eval="require('child_process').execFileSync('terraform', ['destroy', '-auto-approve'])"`,
    'terraform destroy',
    `node --eval="require('child_process').execFileSync('terraform', ['plan'])"`,
  ],
  [
    `node -e "require('fs').rmSync(require('path').join(require('os').homedir(), '.ssh'), {recursive: true})"`,
    'ssh',
    `node -e "require('fs').rmSync(require('path').join('dist', 'cache'), {recursive: true})"`,
  ],
  [`node -e "require('fs').rmSync('/', {recursive: true, force: true})"`, 'rm.root', `node -e "require('fs').rmSync('dist', {recursive: true, force: true})"`],
  [`node -e 'require("fs").rmSync(\`\${process.env.HOME}\`, {recursive: true})'`, 'rm.root', `node -e 'require("fs").rmSync(\`\${dir}\`, {recursive: true})'`],
  [`node -e "require('fs').promises.rm('/etc', {recursive: true})"`, 'rm.root', `node -e "require('fs').promises.rm('tmp', {recursive: true})"`],
  [`node -e "require('fs').unlinkSync('/etc/passwd')"`, 'deniedPaths', `node -e "require('fs').unlinkSync('out.log')"`],
  [
    `node -e "console.log(require('fs').readFileSync(process.env.HOME + '/.ssh/id_rsa', 'utf8'))"`,
    'secrets.paths',
    `node -e "console.log(require('fs').readFileSync('package.json', 'utf8'))"`,
  ],
  [`bun -e 'await Bun.$\`npm publish\`'`, 'npm publish', `bun -e 'await Bun.$\`npm test\`'`],
  [`bun -e "Bun.spawnSync(['rm', '-rf', '/'])"`, 'rm.root', `bun -e "Bun.spawnSync(['ls'])"`],
  [
    `deno eval "new Deno.Command('cargo', {args: ['publish']}).outputSync()"`,
    'cargo publish',
    `deno eval "new Deno.Command('cargo', {args: ['test']}).outputSync()"`,
  ],
  [`deno eval "Deno.removeSync('/etc', {recursive: true})"`, 'rm.root', `deno eval "Deno.removeSync('dist', {recursive: true})"`],
  // perl
  [`perl -e 'system("git", "push", "--force", "origin", "main")'`, 'git', `perl -e 'system("git", "status")'`],
  [`perl -MFile::Path=rmtree -e 'rmtree("/var")'`, 'rm.root', `perl -MFile::Path=rmtree -e 'rmtree("blib")'`],
  [`perl -le 'print 1' -e 'qx{rm -rf /}'`, 'rm.root', `perl -le 'print 1' -e 'qx{ls}'`],
  [`perl -e 'open(my $f, "-|", "npm", "publish")'`, 'npm publish', `perl -e 'open(my $f, "<", "README.md")'`],
  [`perl -e 'unlink "$ENV{HOME}/.bashrc"'`, 'bashrc', `perl -e 'unlink "out.txt"'`],
  // ruby
  [`ruby -e 'system("rm", "-rf", "/")'`, 'rm.root', `ruby -e 'system("rm", "-rf", "tmp/cache")'`],
  [`ruby -e 'puts \`git push --force origin main\`'`, 'git', `ruby -e 'puts \`git log -1\`'`],
  [`ruby -e 'IO.popen(["npm", "publish"]).read'`, 'npm publish', `ruby -e 'IO.popen(["npm", "test"]).read'`],
  [`ruby -rfileutils -e 'FileUtils.rm_rf(File.expand_path("~"))'`, 'rm.root', `ruby -rfileutils -e 'FileUtils.rm_rf("coverage")'`],
  // php, lua, awk, osascript
  [`php -r 'echo shell_exec("rm -rf /");'`, 'rm.root', `php -r 'echo shell_exec("ls");'`],
  [`php -r 'unlink(getenv("HOME") . "/.ssh/id_rsa");'`, 'secrets.paths', `php -r 'unlink("cache.tmp");'`],
  [`lua -e 'os.execute("rm -rf " .. os.getenv("HOME"))'`, 'rm.root', `lua -e 'os.execute("ls")'`],
  [`awk 'BEGIN { "git push -f origin main" | getline x }'`, 'git', `awk 'BEGIN { "git rev-parse HEAD" | getline x }'`],
  [`osascript -e 'do shell script "rm -rf ~"'`, 'rm.root', `osascript -e 'do shell script "ls ~"'`],
  // the program read from a heredoc or here-string on stdin
  [`python3 - <<'PY'\nimport os\nos.system('rm -rf /')\nPY`, 'rm.root', `python3 - <<'PY'\nimport os\nos.system('rm -rf build')\nPY`],
  [`python3 <<'PY'\nimport shutil; shutil.rmtree('/etc')\nPY`, 'rm.root', `python3 <<'PY'\nimport shutil; shutil.rmtree('build')\nPY`],
  [`node <<'JS'\nrequire('child_process').execSync('npm publish')\nJS`, 'npm publish', `node <<'JS'\nrequire('child_process').execSync('npm pack')\nJS`],
  [`node - <<< "require('child_process').execSync('git push -f origin main')"`, 'git', `node - <<< "require('child_process').execSync('git status')"`],
  [`perl <<'PL'\nsystem("rm -rf /");\nPL`, 'rm.root', `perl <<'PL'\nsystem("rm -rf blib");\nPL`],
  [`ruby <<'RB'\nsystem("rm", "-rf", "/")\nRB`, 'rm.root', `ruby <<'RB'\nsystem("rm", "-rf", "tmp")\nRB`],
  [`php <<'PHP'\n<?php system("rm -rf /");\nPHP`, 'rm.root', `php <<'PHP'\n<?php system("ls");\nPHP`],
  [`lua <<'LUA'\nos.execute("rm -rf /")\nLUA`, 'rm.root', `lua <<'LUA'\nos.execute("ls")\nLUA`],
  // wrappers around the interpreter
  [`sudo -u root python3 -c "import shutil; shutil.rmtree('/etc')"`, 'rm.root', `sudo -u root python3 -c "import shutil; shutil.rmtree('/tmp/build-cache')"`],
  [
    `bash -c "node -e \\"require('child_process').execSync('npm publish')\\""`,
    'npm publish',
    `bash -c "node -e \\"require('child_process').execSync('npm ci')\\""`,
  ],
];

describe('the interpreter family', () => {
  const policy = defaultPolicy();
  for (const [bad, rule, good] of PAIRS) {
    test(`deny ${bad}`, async () => {
      const v = await evaluateCommand(bad, policy, ctx());
      assert.equal(v.decision, 'deny', v.reason);
      assert.ok(v.rule?.startsWith('families.interpreter: '), `rule ${v.rule}`);
      assert.ok(`${v.rule} ${v.reason}`.includes(rule), `${v.rule}: ${v.reason}`);
    });
    test(`allow ${good}`, async () => {
      const v = await evaluateCommand(good, policy, ctx());
      assert.equal(v.decision, 'allow', `${v.rule}: ${v.reason}`);
    });
  }

  test('families.interpreter: off lets one-liners through, but not the shell itself', async () => {
    const off: Policy = policyFromRules({ ...DEFAULT_RULES, families: { ...DEFAULT_RULES.families, interpreter: 'off' } });
    assert.equal((await evaluateCommand(`python -c "import os; os.system('rm -rf /')"`, off, ctx())).decision, 'allow');
    assert.equal((await evaluateCommand(`bash -c 'rm -rf /'`, off, ctx())).decision, 'deny');
    assert.equal((await evaluateCommand(`python -c "import os; os.system('rm -rf /')"`, defaultPolicy(), ctx())).decision, 'deny');
  });

  test('families.interpreter: ask never turns the work budget running out inside the code into an ask: the line is denied', async () => {
    const ask: Policy = policyFromRules({ ...DEFAULT_RULES, families: { ...DEFAULT_RULES.families, interpreter: 'ask' } });
    const code = Array.from({ length: 40 }, (_, i) => `import os; os.system('echo ${i}')`).join('; ');
    const line = `python3 -c "${code}"; rm -rf ~`;
    // with room to check it all, the removal decides
    assert.equal((await evaluateCommand(line, ask, ctx())).rule, 'rm.root');
    // the line and its first command fit the budget; the interpreter's code does not, and nothing after it is checked: denied, not asked
    const v = await evaluateCommand(line, ask, { ...ctx(), budget: line.length + 800 });
    assert.equal(v.decision, 'deny', `${v.decision} ${v.rule}: ${v.reason}`);
    assert.equal(v.rule, 'shell.too-long');
  });

  test('families.interpreter: ask asks instead', async () => {
    const ask: Policy = policyFromRules({ ...DEFAULT_RULES, families: { ...DEFAULT_RULES.families, interpreter: 'ask' } });
    const v = await evaluateCommand(`node -e "require('child_process').execSync('npm publish')"`, ask, ctx());
    assert.equal(v.decision, 'ask', v.reason);
  });
});

/** The scripts of the first command of a command line. */
function scriptsOf(line: string): string[] {
  const cmd = parseShell(line, { home: HOME, depth: 0 }).commands[0]!;
  const inv = unwrap(cmd).invocation;
  return inv ? interpreterScripts(inv) : [];
}

/** [command line, the shell command lines its code would run] */
const UNITS: Array<[string, string[]]> = [
  // which code
  [`python -c "print(1+1)"`, []],
  [`python -m http.server 8000`, []],
  [`python script.py -c "import os; os.system('ls')"`, []],
  [`python -I -c "import os; os.system('ls')"`, ['ls']],
  [`python -Sc "import os; os.system('ls')"`, ['ls']],
  [`python3.12 -c "import os; os.system('ls')"`, ['ls']],
  [`pypy3 -c "import os; os.system('ls')"`, ['ls']],
  [`node --require ts-node/register -e "require('child_process').execSync('ls')"`, ['ls']],
  [`node --print="require('child_process').execSync('ls')"`, ['ls']],
  [`node -pe "require('child_process').execSync('ls')"`, ['ls']],
  [`node script.js -e "require('child_process').execSync('ls')"`, []],
  [`bun run -e "require('child_process').execSync('ls')"`, []],
  [`deno eval --print "Deno.removeSync('x')"`, ['rm -f x']],
  [`perl -ne 'print if /system\\("x"\\)/' file`, []],
  [`perl -pi -e 's/a/b/' file`, []],
  [`perl -e 'system("a")' -e 'system("b")'`, ['a', 'b']],
  [`perl -lne 'system("a")'`, ['a']],
  [`ruby -r fileutils -e 'FileUtils.rm_r("x")'`, ['rm -rf x']],
  [`ruby -c lib/app.rb`, []],
  [`php -l src/App.php`, []],
  [`awk -F, '{ system("a") }' data.csv`, ['a']],
  [`awk -f prog.awk data.csv`, []],
  [`awk '/rm -rf/ {print FILENAME": "$0}' scripts/run.sh`, []],
  // python
  [`python -c "import os; os.popen('a').read()"`, ['a']],
  [`python -c "__import__('os').system('a')"`, ['a']],
  [`python -c "import subprocess; subprocess.run(['rm', '-rf', 'a b'])"`, [`rm -rf 'a b'`]],
  [`python -c "import subprocess; subprocess.run(['git', 'push', '-f', remote, 'main'])"`, ['git push -f']],
  [`python -c "import subprocess; subprocess.run(('ls', '-l'))"`, ['ls -l']],
  [`python -c "import subprocess; subprocess.getoutput(cmd)"`, []],
  [`python -c "import os; os.system('rm -rf ' + path)"`, []],
  [`python -c "import os; os.system('rm -rf %s' % path)"`, []],
  [`python -c "import os; os.system('ls {}'.format(d))"`, []],
  [`python -c "import os; os.system(f'rm -rf {d}')"`, []],
  [`python -c "import os; os.system(r'echo \\d')"`, ['echo \\d']],
  [`python -c "import os; os.system('rm -rf ' + os.path.expanduser('~/.cache'))"`, ['rm -rf "$HOME"/.cache']],
  [`python -c "import os; os.execl('/bin/rm', 'rm', '-rf', 'x')"`, ['/bin/rm -rf x']],
  [`python -c "import os; os.spawnlp(os.P_WAIT, 'rm', 'rm', '-rf', 'x')"`, ['rm -rf x']],
  [`python -c "import shutil; shutil.rmtree(os.path.join(os.getenv('HOME'), 'a', 'b'))"`, ['rm -rf "$HOME"/a/b']],
  [`python -c "import shutil, pathlib; shutil.rmtree(pathlib.Path('~/x').expanduser())"`, ['rm -rf "$HOME"/x']],
  [`python -c "import shutil; shutil.rmtree('')"`, []],
  [`python -c "import os; os.remove('a'); os.rmdir('b')"`, ['rm -f a', 'rmdir b']],
  [`python -c "open('a', 'w'); open('b')"`, [': > a', 'cat b']],
  [`python -c "print('os.system(\\"rm -rf /\\")')"`, []],
  [`python -c "import asyncio; asyncio.run(main())"`, []],
  // javascript
  [`node -e "const { execSync } = require('child_process'); execSync('a')"`, ['a']],
  [`node -e "import('child_process').then((cp) => cp.exec('a'))"`, ['a']],
  [`node -e "require('child_process').spawn('git', ['push', '-f'], {stdio: 'inherit'})"`, ['git push -f']],
  [`node -e "require('child_process').spawn('ls')"`, ['ls']],
  [`node -e "require('child_process').execSync('a\\nb')"`, ['a\nb']],
  [`node -e "require('child_process').execSync(cmd)"`, []],
  [`node -e 'require("child_process").execSync(\`ls \${dir}\`)'`, []],
  [`node -e "require('fs').rmSync('a')"`, ['rm -f a']],
  [`node -e "require('fs').rmdirSync('a'); require('fs').rmdirSync('b', {recursive: true})"`, ['rmdir a', 'rm -rf b']],
  [`node -e "require('fs').writeFileSync(require('os').homedir() + '/.npmrc', 'x')"`, [': > "$HOME"/.npmrc']],
  [`node -e "console.log('require(\\"child_process\\").execSync(\\"rm -rf /\\")')"`, []],
  [`bun -e "Bun.spawn({cmd: ['a', 'b']})"`, ['a b']],
  [`deno eval "Deno.run({cmd: ['a', 'b']})"`, ['a b']],
  [`deno eval "Deno.removeSync(Deno.env.get('HOME') + '/x', {recursive: true})"`, ['rm -rf "$HOME"/x']],
  // perl
  [`perl -e 'system "a"'`, ['a']],
  [`perl -e 'exec("a", "b c")'`, [`a 'b c'`]],
  [`perl -e 'my $x = \`a\`; print qx(b)'`, ['a', 'b']],
  [`perl -e 'system("rm -rf $dir")'`, []],
  [`perl -e 'print "$ENV{HOME}"; system("ls $ENV{HOME}/x")'`, ['ls "$HOME"/x']],
  [`perl -e 'open(F, "a |"); open(G, "> x"); open(H, "<", "y")'`, ['a', ': > x', 'cat y']],
  [`perl -MFile::Path=remove_tree -e 'remove_tree("a", "b")'`, ['rm -rf a', 'rm -rf b']],
  [`perl -e 'print "system(\\"x\\")"'`, []],
  // ruby
  [`ruby -e 'system("a")'`, ['a']],
  [`ruby -e 'system({"X" => "1"}, "a", "b")'`, ['a b']],
  [`ruby -e '%x{a}; %x(b)'`, ['a', 'b']],
  [`ruby -e 'puts \`ls #{dir}\`'`, []],
  [`ruby -e 'Open3.capture3("a", "b")'`, ['a b']],
  [`ruby -e 'FileUtils.rm_rf(["a", "b"]); File.delete("c")'`, ['rm -rf a', 'rm -rf b', 'rm -f c']],
  [`ruby -e 'File.write(File.join(Dir.home, ".zshrc"), "")'`, [': > "$HOME"/.zshrc']],
  // php, lua, awk, osascript
  [`php -r 'system("a"); exec("b", $out); passthru("c"); echo \`d\`;'`, ['a', 'b', 'c', 'd']],
  [`php -r '$db->exec("DROP TABLE x");'`, []],
  [`php -r 'file_put_contents("/etc/hosts", "x");'`, [': > /etc/hosts']],
  [`lua -e 'os.execute("a"); io.popen("b"); os.remove("c")'`, ['a', 'b', 'rm -f c']],
  [`awk 'BEGIN { print "x" | "sort" }'`, ['sort']],
  [`osascript -e 'do shell script "a" & "b"'`, ['ab']],
  // stdin: read only when no script is named
  [`python3 - <<'PY'\nimport os; os.system('a')\nPY`, ['a']],
  [`python3 -u <<< "import os; os.system('a')"`, ['a']],
  [`python3 script.py <<'EOF'\nimport os; os.system('a')\nEOF`, []],
  [`python3 -c "print(1)" <<< "import os; os.system('a')"`, []],
  [`node --input-type=module <<'JS'\nimport cp from 'child_process'; cp.execSync('a')\nJS`, ['a']],
  [`node --check <<< "require('child_process').execSync('a')"`, []],
  [`bun run - <<< "Bun.spawnSync(['a'])"`, ['a']],
  [`bun test <<< "Bun.spawnSync(['a'])"`, []],
  [`deno run - <<< "Deno.removeSync('x')"`, ['rm -f x']],
  [`perl -w <<'PL'\nsystem("a");\nPL`, ['a']],
  [`perl data.pl <<'EOF'\nsystem("a");\nEOF`, []],
  [`ruby -c <<'RB'\nsystem("a")\nRB`, []],
  [`php <<'PHP'\nsystem("a") is text here <?php system("b"); ?> and <?= shell_exec("c") ?>\nPHP`, ['b', 'c']],
  [`php -f app.php <<< '<?php system("a");'`, []],
  [`awk '{ print }' <<< 'system("a")'`, []],
];

describe('interpreterScripts', () => {
  for (const [line, expected] of UNITS) {
    test(line, () => assert.deepEqual(scriptsOf(line), expected));
  }

  test('other programs are not read', () => {
    assert.deepEqual(scriptsOf(`echo "import os; os.system('rm -rf /')"`), []);
    assert.deepEqual(scriptsOf(`grep -r "os.system(" src`), []);
  });

  // Catastrophic backtracking on these inputs would not end; a linear scan ends with these answers.
  // No clock is read: on a loaded machine even the linear scan can take seconds.
  test('long and deeply nested code ends with a bounded answer', () => {
    // an unclosed call 20,000 deep and 50,000 open brackets run nothing that can be read
    assert.deepEqual(scriptsOf(`python -c "${'os.system('.repeat(20_000)}"`), []);
    assert.deepEqual(scriptsOf(`node -e "${'['.repeat(50_000)}"`), []);
    // 10,000 calls: the first 64 are judged (a bound on the work, and enough to find one that is denied)
    assert.deepEqual(scriptsOf(`perl -e '${'system("a"); '.repeat(10_000)}'`), Array(64).fill('a'));
  });
});
