/**
 * Words the unknown-command rule counts by their name (`release`, `deploy`, `promote`: the publish
 * family's verbs) that some programs give to a step which stays on the machine (docs/safety.md, "How
 * an unknown command is judged"). A program's entry lists those words, each after the subcommand
 * words that must stand right before it (`migrate deploy`: `prisma migrate deploy`, not `prisma
 * deploy`); its other verbs are read as any program's (`rebar3 hex publish` is still a publish).
 */
const LOCAL_VERBS: Readonly<Record<string, readonly string[]>> = {
  // a release assembled under _build/<profile>/rel (relx), as `mix release` does; `rebar3 hex publish` is the upload
  rebar3: ['release'],
  relx: ['release'],
  // an optimized build of the project's ClojureScript into its output folder
  'shadow-cljs': ['release'],
  // a prebuilt npm package written into _release; `npm publish` of it is the upload
  esy: ['release'],
  // the corrected output of the project's expect and cram tests copied over its own files
  dune: ['promote'],
  // a migration tool's deploy: the pending migrations applied to the database the project configures,
  // as `flyway migrate`, `alembic upgrade head` and `rails db:migrate` do (its wipes are the infra family's)
  prisma: ['migrate deploy'],
  sqitch: ['deploy'],
  schemachange: ['deploy'],
  // Flyway's deploy runs a migration script it is given on the configured database, as its migrate does
  flyway: ['deploy'],
  // Hasura's deploy applies the project's metadata and migrations, as `hasura migrate apply` and `metadata apply` do
  hasura: ['deploy'],
  // MySQL sandboxes installed under ~/sandboxes for development
  dbdeployer: ['deploy'],
};

/** The entries split into words once: each a verb and the words that must stand right before it. */
const ENTRIES = new Map(Object.entries(LOCAL_VERBS).map(([program, list]) => [program, list.map((e) => e.split(' '))]));

/** Whether the subcommand word `path[at]` of `program` is a verb that program uses for a local step (`rebar3 as prod release`, `prisma migrate deploy`). */
export function localVerb(program: string, path: readonly string[], at: number): boolean {
  const entries = ENTRIES.get(program);
  if (!entries) return false;
  return entries.some((words) => {
    const before = words.length - 1;
    return at >= before && words.every((w, k) => path[at - before + k] === w);
  });
}
