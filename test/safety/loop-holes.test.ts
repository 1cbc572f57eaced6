/**
 * Loops nested in loops: the body runs once for every combination of the loop variables' values,
 * so a command using two of them is read once per combination (each variable its own
 * dimension), not with the variables pinned to the same run; each run feeds the next stage of its
 * pipeline, and a loop's `done | sh` what the body prints. Past the cap on runs the command is
 * still answered, quickly, on the denying side.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decide, testHoles } from './context.ts';

testHoles({
  // `$a$b` takes every pair of values: `/` with `""` is `rm -rf /`
  'nested loop variables are crossed, not pinned to the same run': [
    ['for a in src x; do for b in /gen ""; do bash -c "rm -rf $a$b"; done; done', 'for a in / x; do for b in x ""; do bash -c "rm -rf $a$b"; done; done'],
    ['for a in /tmp/a /tmp/b; do for b in /x ""; do rm -rf "$a$b"; done; done', 'for a in /home/u /tmp; do for b in /x ""; do rm -rf "$a$b"; done; done'],
    ['for a in build dist; do for b in src ""; do rm -rf "$a/$b"; done; done', 'for a in ~ /tmp; do for b in src ""; do rm -rf "$a/$b"; done; done'],
    [
      'for a in /tmp/x /tmp; do for s in /dist /y; do rm -rf "$a$s"; done; done',
      'for a in /home/u/proj /tmp; do for s in /dist ""; do rm -rf "$a$s"; done; done',
    ],
    ['for a in /tmp/x /tmp/y; do for b in /x /; do rm -rf "$a$b"; done; done', 'for a in /home/u /tmp; do for b in /x /; do rm -rf "$a$b"; done; done'],
    ['for a in notes todo; do for b in .md ""; do cat "$a$b"; done; done', 'for a in id_ed25519 notes; do for b in .pub ""; do cat "$a$b"; done; done'],
    [
      'for a in notes todo; do for b in .md ""; do cp "$a$b" /tmp/; done; done',
      'for a in id_ed25519 notes; do for b in .pub ""; do cp "$a$b" /tmp/; done; done',
    ],
    // the same variable twice in a word is one value in a run; a redirection crosses with the words
    [
      'for a in /tmp/o /tmp; do for b in x /passwd; do echo "$a$b" > "$a$b"; done; done',
      'for a in /etc /tmp; do for b in x /passwd; do echo k > "$a$b"; done; done',
    ],
    // a loop over a loop variable's values crosses with another loop
    [
      'for d in a b; do for e in $d; do for f in /x ""; do rm -rf "build/$e$f"; done; done; done',
      'for d in / a; do for e in $d; do for f in x ""; do bash -c "rm -rf $e$f"; done; done; done',
    ],
  ],
  // the loop marks typed on the command line (`$'\005'`) are data: the command is still read
  'a command holding the characters that mark loop values is still read': [
    ['bash -c "echo $\'\\005\\007\'"', 'bash -c "rm -rf / $\'\\005\\007\'"'],
    ['for d in a b; do rm -rf "build/$d" $\'\\0050\\006x\\007\'; done', 'for d in a /; do rm -rf "$d" $\'\\0050\\006x\\007\'; done'],
  ],
  // each run of a loop body's stage feeds the next stage: `echo "rm -rf $d" | bash` once per value
  "a loop body's pipeline runs once per value": [
    ['for d in a b; do echo "ls $d" | bash; done', 'for d in a /; do echo "rm -rf $d" | bash; done'],
    ['for d in a b; do echo "$d" | xargs ls; done', 'for d in a /; do echo "$d" | xargs rm -rf; done'],
    // a later stage that runs once per value is still fed by the stage before it
    ['for o in -s -x; do echo "ls" | bash $o; done', 'for o in -s -x; do echo "rm -rf /" | bash $o; done'],
    ['for a in x y; do for b in 1 2; do echo "ls $a$b" | sh; done; done', 'for a in x y; do for b in 1 ~; do echo "rm -rf $b" | sh; done; done'],
  ],
  // what a loop prints goes into the pipe after its `done`
  'a loop piped into a shell runs what the body prints': [
    ['for d in a b; do echo "ls $d"; done | bash', 'for d in /; do echo "rm -rf $d"; done | bash'],
    ['for d in src test; do echo "$d"; done | sort', 'for d in a /; do echo "rm -rf $d"; done | bash'],
    ['for d in a b; do for e in x y; do echo "ls $d$e"; done; done | sh', 'for d in a b; do for e in x /; do echo "rm -rf $e"; done; done | sh'],
  ],
  // `for d;` runs over the positional parameters `set --` gave
  'a loop over "$@" takes the positional parameters': [['set -- a b; for d; do bash -c "rm -rf $d"; done', 'set -- a /; for d; do bash -c "rm -rf $d"; done']],
  // past the cap on runs a word mixing two loop variables cannot be checked combination by combination
  'a word crossing loop variables past the cap is not let through unchecked': [
    [
      `for a in ${range('a', 10)}; do for b in ${range('b', 10)}; do npx prettier --write "src/$a.ts" "test/$b.ts"; done; done`,
      `for a in / ${range('/tmp/a', 9)}; do for b in ${range('x', 9)} ""; do bash -c "rm -rf $a$b"; done; done`,
    ],
  ],
});

/** `n` words `prefix0 … prefix<n-1>`. */
function range(prefix: string, n: number): string {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');
}

test('three nested loops of 40 values and four of 100 are answered', async () => {
  const nested = (n: number, depth: number, body: string) => {
    const names = 'abcd'.slice(0, depth).split('');
    const heads = names.map((v) => `for ${v} in ${range(`${v}`, n)}; do`).join(' ');
    return `${heads} ${body}${' done;'.repeat(depth)}`;
  };
  // the verdict is the cap's (too many combinations to check), not a timeout's
  assert.match(await decide(nested(40, 3, 'bash -c "rm -rf /tmp/$a$b$c";')), /^deny /);
  // over 64 values a loop variable is one only the shell knows: `rm -rf "$a$b$c$d"` removes an unknown folder
  assert.match(await decide(nested(100, 4, 'rm -rf "$a$b$c$d";')), /^deny /);
  assert.equal(await decide(nested(40, 3, 'echo "$a" "$b" "$c";')), 'allow');
});
