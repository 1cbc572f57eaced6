import { testHoles } from './context.ts';

/**
 * What reaches a later stage of a pipe: a compound's output (shell.ts, pipeline-lanes.ts) — a
 * loop, a `{ }` group, a `( )` subshell, a function's body, an `if` and a `case` each write what
 * every one of their pipelines writes, and each later stage reads it — and a static stage's text
 * through the filters before xargs or parallel (fed-input.ts): [an everyday command, its
 * dangerous neighbour]. The context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // the loop's `done |` fed only the body's last stage: what an earlier pipeline printed was lost
  'what every pipeline of a loop body prints goes into a pipe after its done': [
    ['for d in a; do echo "ls /"; echo hi; done | sh', 'for d in a; do echo "rm -rf /"; echo hi; done | sh'],
    ['for d in a b; do echo "ls $d"; echo hi; done | bash', 'for d in / b; do echo "rm -rf $d"; echo hi; done | bash'],
    ['while true; do echo "ls ~"; echo hi; break; done | sh', 'while true; do echo "rm -rf ~"; echo hi; break; done | sh'],
    ['until false; do echo "ls ~"; break; done | sh', 'until false; do echo "rm -rf ~"; break; done | sh'],
    ['while read l; do echo "ls /"; echo "$l"; done < f | sh', 'while read l; do echo "rm -rf /"; echo "$l"; done < f | sh'],
    // a loop's condition writes into the pipe too
    ['while echo "ls /"; do break; done | sh', 'while echo "rm -rf /"; do break; done | sh'],
  ],
  // the stages besides the first were fed to the stage right after the group alone
  'what every pipeline of a group writes reaches each later stage': [
    ['{ echo hi; echo "ls /"; } | cat | sh', '{ echo hi; echo "rm -rf /"; } | cat | sh'],
    ['(echo hi; echo "ls ~") | tee log | bash', '(echo hi; echo "rm -rf ~") | tee log | bash'],
    ['f() { echo hi; echo "ls /"; }; f | cat | sh', 'f() { echo hi; echo "rm -rf /"; }; f | cat | sh'],
    ['for d in a; do echo "ls /"; echo hi; done | cat | sh', 'for d in a; do echo "rm -rf /"; echo hi; done | cat | sh'],
    ['{ echo hi; for d in a /; do echo "ls $d"; done; } | cat | sh', '{ echo hi; for d in a /; do echo "rm -rf $d"; done; } | cat | sh'],
  ],
  // an `if` and a `case` are compounds as well: what their branches print goes into the pipe
  'what an if or a case prints goes into a pipe after its fi or esac': [
    ['if true; then echo "ls /"; fi | sh', 'if true; then echo "rm -rf /"; fi | sh'],
    ['if false; then echo hi; else echo "ls ~"; fi | bash', 'if false; then echo hi; else echo "rm -rf ~"; fi | bash'],
    ['case a in a) echo "ls /";; esac | sh', 'case a in a) echo "rm -rf /";; esac | sh'],
    // a case's `pattern)` inside a subshell ended the subshell there
    ['(case a in a) echo "ls /";; esac) | sh', '(case a in a) echo "rm -rf /";; esac) | sh'],
    ['f() ( case a in a) echo "ls ~";; esac ); f | sh', 'f() ( case a in a) echo "rm -rf ~";; esac ); f | sh'],
  ],
  // xargs and parallel read the words a static stage writes, and through the filters that keep its lines too (fed-input.ts)
  'what a static stage writes through a filter that keeps its lines becomes the arguments xargs runs': [
    ['echo dist | cat | xargs rm -rf', 'echo / | cat | xargs rm -rf'],
    ['echo dist | grep d | xargs rm -rf', 'echo / | grep / | xargs rm -rf'],
    ['echo dist | tee log | xargs rm -rf', 'echo ~ | tee log | xargs rm -rf'],
    ['echo dist | head -n 5 | xargs rm -rf', 'printf "%s\\n" ~ | head -n 5 | xargs rm -rf'],
    ['echo build | cat | parallel rm -rf', 'echo ~ | cat | parallel rm -rf'],
    ['echo README.md | cat | xargs cat', 'echo .env | cat | xargs cat'],
  ],
});
