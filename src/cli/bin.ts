import { axmeSelf } from '../model/axme-self.ts';
import { run } from './main.ts';

// `axme decision list | head -1`: the reader went away; that is not an error of ours.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`axme: cannot write the answer to standard output: ${err.message}\n`);
  process.exit(1);
});

// The executable: real process streams in, exit code out. Everything else is in run(). (No
// top-level await: the bundle is a script, dist/cli.cjs, so that it can use a code cache.)
void run(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  // the launcher (dist/axme.cjs) is what people and hooks run
  self: axmeSelf(process.execPath, process.argv[1]),
}).then((code) => {
  process.exitCode = code;
});
