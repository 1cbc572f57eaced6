import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decide, testHoles } from './context.ts';

/**
 * A secret file handed to a program as its environment (src/safety/env-files.ts): the program gets
 * the values and the agent sees none of them, so the run passes; where the command itself prints
 * what it received, the file is read as any file is and the secret's name denies it.
 */
testHoles({
  'node and its kin run a script with the file': [
    ['node --env-file=.env server.js', `node --env-file=.env -e 'console.log(process.env)'`],
    ['node --env-file .env.local dist/index.js', 'node --env-file=.env -p process.env.KEY'],
    ['node --env-file-if-exists=.env.local --test', 'node --env-file=.env'],
    ['tsx --env-file=.env src/main.ts', 'tsx --env-file=.env'],
    ['tsx watch --env-file=.env src/main.ts', 'npx tsx --env-file=.env -e "console.log(process.env)"'],
    ['bun --env-file=.env.local run dev', 'bun --env-file=.env.local -e "console.log(Bun.env)"'],
    ['bun --env-file=.env test', 'bun --env-file .env exec "echo $KEY"'],
    ['deno run --env-file=.env main.ts', 'deno eval --env-file=.env "console.log(Deno.env.toObject())"'],
    // deno reads only `--env-file=FILE`: with a space the file is the script it runs
    ['deno task --env-file=.env dev', 'deno run --env-file .env main.ts'],
    ['deno run --env-file=.env --allow-read --allow-net main.ts', 'deno run -A --env-file=.env -'],
  ],
  'containers run the image with the file': [
    ['docker run --env-file .env app', 'docker run --env-file .env alpine env'],
    ['docker run --rm --env-file .env.local -p 3000:3000 --name web app', 'docker run --env-file .env app printenv'],
    ['podman run --env-file=.env app', `docker run --env-file .env app sh -c 'echo $KEY'`],
    ['docker exec --env-file .env web npm test', 'docker run --env-file .env --entrypoint env app'],
    ['docker compose --env-file .env.production up -d', 'docker compose --env-file .env config'],
    ['docker compose --env-file .env.local config --services', 'docker compose --env-file .env.local config --images'],
    ['docker-compose --env-file .env.local logs -f web', 'docker compose --env-file .env run app printenv'],
    ['docker compose --env-file .env.local run web npm test', 'docker run --env-file .env -it ubuntu bash'],
  ],
  'runners start a command with the file': [
    ['npx dotenv -e .env.local -- next dev', 'dotenv -e .env -- printenv'],
    ['dotenv -e .env.test -- jest', 'dotenv -e .env -- env'],
    ['env-cmd -f .env.local npm start', 'env-cmd -f .env env'],
    ['dotenv -e .env -- node scripts/print-env.js', `dotenv -e .env -- bash -c 'echo $KEY'`],
    ['op run --env-file=.env -- npm start', 'op run --env-file=.env -- printenv'],
    ['pnpm exec dotenv -e .env.local -- vitest run', 'dotenv -e .env.local -p DATABASE_URL'],
    ['python -m dotenv -f .env run python app.py', 'python -m dotenv -f .env list'],
    ['env-cmd -f .env.local -- next build', 'env-cmd -f .env -x echo \\$KEY'],
    ['dotenv -e .env -- npm run build', 'dotenv -e .env -- npm run env'],
    ['dotenv -e .env -- vitest', 'dotenv -e .env -- cat /proc/self/environ'],
    ['op run --env-file .env -- node server.js', 'echo printenv | dotenv -e .env -- sh'],
  ],
  'a word only the running shell knows may be what prints': [
    ['docker run --env-file .env -v "$PWD":/app -w /app app', 'docker run --env-file .env app "$CMD"'],
    ['node --env-file=.env dist/index.js "$PORT"', 'node --env-file=.env $(cat flags.txt) process.env'],
  ],
});

describe('what stays denied', () => {
  const denied: ReadonlyArray<readonly [string, RegExp]> = [
    // the agent's own shell gets the values: the next command can print them
    ['set -a; source .env; set +a; npm run dev', /^deny \[secrets\.paths: \.env\]/],
    ['export $(cat .env | xargs)', /^deny \[secrets\.paths: \.env\]/],
    // the program a runner starts is judged as any command
    ['dotenv -e .env -- rm -rf ~', /^deny \[rm\.root\]/],
    ['dotenv -- rm -rf ~', /^deny \[rm\.root\]/],
    ['env-cmd rm -rf ~', /^deny \[rm\.root\]/],
    ['op run -- rm -rf ~', /^deny \[rm\.root\]/],
    ['npx dotenv -c -- bash -c "rm -rf ~"', /^deny \[rm\.root\]/],
    ['dotenv -e .env -- cat .env.production', /^deny \[secrets\.paths: \.env\.\*\]/],
    // a denied path is neither read nor handed on: its rule is not the secret names'
    ['node --env-file=/home/u/.ssh/id_ed25519 server.js', /^deny \[secrets\.paths: ~\/\.ssh\/\*\]/],
    ['docker run --env-file ~/.netrc app', /^deny \[secrets\.paths: ~\/\.netrc\]/],
  ];
  for (const [command, verdict] of denied) {
    test(command, async () => assert.match(await decide(command), verdict));
  }
});
