/**
 * An operand the shell makes empty (`rm -rf ""`, `x=dist; rm -rf "${x%dist}"`) names no file: rm
 * says "cannot remove ''" and removes nothing, so it is not the folder rm runs in. A word only the
 * shell knows stays any folder (`rm -rf "$DIR"`), and an empty word before a slash is `/`.
 */
import { testHoles } from './context.ts';

testHoles({
  'an empty operand names no file': [
    ['rm -rf ""', 'rm -rf ""/'],
    ['x=dist; rm -rf "${x%dist}"', 'x=/dist; rm -rf "${x%dist}"'],
    ["rm -rf '' build", "rm -rf '' ~"],
    ['x=; rm -rf "$x"', 'rm -rf "$DIR"'],
  ],
});
