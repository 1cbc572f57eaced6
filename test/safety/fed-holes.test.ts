import { testHoles } from './context.ts';

/**
 * Names read from a file or a program's lines into a recursive forced removal, and the history
 * lost through removers and writers other than rm: [an everyday command, its dangerous neighbour].
 */
testHoles({
  'grep and git print a file lines, not names of the project, unless they list files': [
    ['git ls-files -z | xargs -0 rm -f', 'grep -v keep list | xargs rm -rf'],
    ['grep -rl TODO src | xargs rm -f', 'grep . list | xargs rm -rf'],
    ['git diff --name-only | xargs rm -rf', 'git show HEAD:dirs.txt | xargs rm -rf'],
    ['grep -rl TODO build | xargs rm -rf', 'git cat-file -p HEAD:list | xargs rm -rf'],
    ["find . -name '*.tmp' | xargs rm", 'git config --get-all x.dirs | xargs rm -rf'],
    ['git status --porcelain | xargs rm -rf', 'grep -e l list | xargs rm -rf'],
  ],
  'a here-string or here-document of a variable feeds xargs unknown names': [
    ['xargs rm -rf <<< "build dist"', 'xargs rm -rf <<< "$DIRS"'],
    ['xargs rm -f <<< "$FILES"', 'xargs rm -rf <<EOF\n$DIRS\nEOF'],
  ],
  'a shell or a find run by xargs removes the names it reads': [
    ["cat list | xargs -I{} sh -c 'echo {}'", "cat list | xargs -I{} sh -c 'rm -rf {}'"],
    ["cat list | xargs -I{} sh -c 'rm -f {}'", 'cat list | xargs -I{} bash -c \'rm -rf "{}"\''],
    ["cat list | xargs -I{} find {} -name '*.o' -delete", 'cat list | xargs -I{} find {} -delete'],
  ],
  'a write, edit or removal of a history file is its removal': [
    ['rm .git/index.lock', 'unlink .git/HEAD'],
    ['echo ref: refs/heads/x > /tmp/HEAD', 'shred -u .git/HEAD'],
    ['git update-ref refs/heads/x HEAD', '> .git/packed-refs'],
    ['cat .git/HEAD', 'echo x > .git/refs/heads/main'],
    ["find . -name '*.log' -exec truncate -s0 {} +", "find . -name '*.pack' -exec truncate -s0 {} +"],
    ['truncate -s 0 build/log.txt', 'truncate -s 0 .git/packed-refs'],
  ],
});
