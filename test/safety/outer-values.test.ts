/**
 * A shell's script built by an enclosing shell (`bash -c "rm -rf $DIR"`, `eval "rm -rf $x"`): the
 * value the enclosing shell expands into the script's text is one only it knows, so a removal of
 * it is judged as `rm -rf "$DIR"` is (docs/safety.md, "Words built from variables") — beside the
 * neighbours whose value the command line tells, or whose word goes on past it.
 */
import { testHoles } from './context.ts';

testHoles({
  'a removal of what the enclosing shell expanded into a script': [
    ['bash -c "rm -rf $DIR/build"', 'bash -c "rm -rf $DIR"'],
    ['d=/tmp/x; bash -c "rm -rf $d"', 'eval "rm -rf $x"'],
    ['sh -c "rm -f $F"', 'sh -c "rm -rf $1"'],
    ['bash -c "cd $DIR && npm test"', 'bash -c "cd /tmp && rm -rf $(cat dirs.txt)/"'],
    ['bash -c "echo $HOME"', 'd=$(cat x); bash -c "rm -rf $d/"'],
    ['eval "$(ssh-agent -s)"', 'eval "rm -r -f $TARGET"'],
  ],
});
