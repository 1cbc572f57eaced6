/**
 * False alarms a sixth gathering of everyday command lines found (everyday-unseen4.txt: the build
 * and task tools of other ecosystems, migrations, docs and data tools), each with the dangerous
 * neighbours the same rule must still deny.
 */
import { testAsks, testHoles } from './context.ts';

testHoles({
  // families/local-verbs.ts: a verb by its name the program gives to a step that stays on the machine; its other verbs are read as before
  "a build tool's release assembled in the project is no publish": [
    ['rebar3 release', 'rebar3 hex publish'],
    ['rebar3 as prod release', 'rebar3 as prod hex publish'],
    ['relx release tar', 'lein release'],
    ['npx shadow-cljs release app', 'npx lein release'],
    ['shadow-cljs release app --verbose', 'npx nx release'],
    ['esy release', 'esy npm publish'],
  ],
  "dune's promote copies a test's corrected output into the project": [
    ['dune promote', 'dune-release publish'],
    ['dune promote test/parser.t', 'opam publish'],
  ],
  "a migration tool's deploy applies the project's migrations, as flyway migrate does": [
    ['npx prisma migrate deploy', 'npx prisma deploy'],
    ['pnpm prisma migrate deploy --schema prisma/schema.prisma', 'prisma deploy --force'],
    ['sqitch deploy db:pg:app_dev', 'serverless deploy --stage prod'],
    ['schemachange deploy -f migrations', 'uvx mkdocs gh-deploy'],
    ['flyway deploy -scriptFilename=deploy.sql', 'fly deploy'],
    ['hasura deploy --endpoint http://localhost:8080', 'npx vercel deploy --prod'],
    ['dbdeployer deploy single 8.0.36', 'kamal deploy -d production'],
  ],
});

testAsks({
  // the migration tools' wipes stay the infra family's (infra-migrations.ts, infra-db.ts)
  "a migration tool's deploy passes, its reset is still asked": [
    ['npx prisma migrate deploy', 'npx prisma migrate reset --force'],
    ['yarn prisma migrate deploy', 'npx prisma db push --force-reset'],
    ['flyway -configFiles=conf/dev.toml deploy', 'flyway -configFiles=conf/dev.toml clean'],
  ],
});
