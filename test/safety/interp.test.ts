import { testHoles } from './context.ts';

/**
 * Interpreter one-liners the interpreter family did not read: R and Julia, a renamed guarded path,
 * a path held in a variable, every file under the home folder, the environment sent off by the
 * code: [an everyday one-liner, its dangerous neighbour]. The context is context.ts's: the project
 * /home/u/proj on main, home /home/u.
 */
testHoles({
  // R (`Rscript -e`, `R -e`) and Julia (`julia -e`) are read as the other interpreters are
  'R and Julia one-liners are read': [
    [`Rscript -e 'unlink("build", recursive=TRUE)'`, `Rscript -e 'unlink("~", recursive=TRUE)'`],
    [`R -e 'unlink("build", recursive=TRUE)'`, `R -e 'unlink("~", recursive=TRUE)'`],
    [`julia -e 'rm("tmp", recursive=true, force=true)'`, `julia -e 'rm(homedir(), recursive=true)'`],
    [`julia -e 'rm("tmp", recursive=true)'`, `julia -e 'rm("/etc", recursive=true)'`],
    [`Rscript -e 'system("ls")'`, `Rscript -e 'system("rm -rf ~")'`],
    [`julia -e 'run(\`ls\`)'`, `julia -e 'run(\`rm -rf /\`)'`],
  ],
  // `os.rename(a, b)` is `mv a b`
  'a rename in interpreter code is mv': [
    [`python3 -c 'import os;os.rename("a.txt","b.txt")'`, `python3 -c 'import os;os.rename(".git/hooks",".git/h")'`],
    [`python3 -c 'import os;os.replace("a.txt","b.txt")'`, `python3 -c 'import os;os.replace(".git/hooks",".git/h")'`],
    [`python3 -c 'import shutil;shutil.move("a","b")'`, `python3 -c 'import shutil;shutil.move(".git/hooks",".git/h")'`],
  ],
});
