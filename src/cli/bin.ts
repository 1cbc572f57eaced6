import { run } from './main.ts';

// The executable: real process streams in, exit code out. Everything else is in run().
const code = await run(process.argv.slice(2), {
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
process.exitCode = code;
