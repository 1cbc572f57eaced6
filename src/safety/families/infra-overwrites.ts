import { type Hit, hasOption, hasShort, operands } from './args.ts';

/**
 * The infra family's cloud commands that destroy without a delete verb (docs/safety.md, the infra
 * row): what is imported over a live database, a table overwritten or made to expire, a vault
 * purged past its soft delete, a template deployed in Complete mode
 * (which deletes what it does not name), logs copied to another destination, a subscription's
 * messages skipped; a hosted project's secrets and migration history (supabase); MongoDB
 * Atlas' clusters, snapshots and administrators.
 */

interface Overwrite {
  program: string;
  /** the command words (operands, space-joined) it matches from their start */
  words: RegExp;
  /** an argument the line must also hold, if any */
  when?: (args: readonly string[]) => boolean;
  /** what it does, for the reason */
  does: string;
}

const OVERWRITES: readonly Overwrite[] = [
  { program: 'az', words: /^(?:\S+ )*purge\b/, does: 'purges a deleted resource past its soft delete: the copy kept for recovery is gone for good' },
  {
    program: 'az',
    words: /^deployment (?:group|sub|mg|tenant) create\b/,
    when: (a) => a.some((x, i) => /^complete$/i.test(x) && a[i - 1] === '--mode') || a.some((x) => /^--mode=complete$/i.test(x)),
    does: 'deploys in Complete mode: every resource of the group that the template does not name is deleted, data included',
  },
  { program: 'gcloud', words: /^logging sinks (?:create|update)\b/, does: "sends the project's logs to the destination it names, wherever that is" },
  { program: 'gcloud', words: /^(?:sql import|firestore import|spanner databases import)\b/, does: 'imports into a live database over the data it holds' },
  {
    program: 'gcloud',
    words: /^pubsub subscriptions seek\b/,
    does: "moves a subscription's cursor: the messages before the time are acknowledged unread, or old ones delivered again",
  },
  {
    program: 'bq',
    words: /^cp\b/,
    when: (a) => hasShort(a, 'f') || hasOption(a, '--force', '-force'),
    does: 'copies over an existing table, whose rows are replaced',
  },
  { program: 'bq', words: /^load\b/, when: (a) => hasOption(a, '--replace', '-replace'), does: 'loads a file in place of the rows the table holds' },
  {
    program: 'bq',
    words: /^update\b/,
    when: (a) => a.some((x) => /^--?(?:default_table_)?expiration\b/.test(x)),
    does: 'sets when the table expires; an expired table is deleted with its rows',
  },
  { program: 'doctl', words: /^registry garbage-collection start\b/, does: "deletes the registry's untagged images and layers for good" },
  { program: 'aws', words: /^s3 mv\b/, when: (a) => hasOption(a, '--recursive'), does: 'moves every object under the path: the source is deleted once copied' },
  { program: 'supabase', words: /^secrets (?:set|unset)\b/, does: "replaces or removes a hosted project's secret; its old value cannot be read back" },
  {
    program: 'supabase',
    words: /^migration repair\b/,
    does: "rewrites the hosted project's migration history, so the next push runs or skips migrations against what the database holds",
  },
  {
    program: 'supabase',
    words: /^ssl-enforcement update\b/,
    when: (a) => a.includes('--disable-db-ssl-enforcement'),
    does: "lets clients reach the hosted project's database without TLS",
  },
  {
    program: 'atlas',
    words: /^(?:clusters|backups snapshots|projects|dbusers|organizations) delete\b/,
    does: 'deletes a MongoDB Atlas resource and the data in it',
  },
  {
    program: 'atlas',
    words: /^dbusers create\b/,
    when: (a) => a.some((x) => /^atlasAdmin$|readWriteAnyDatabase/.test(x)),
    does: 'makes a database user with rights over every database',
  },
  {
    program: 'convex',
    words: /^import\b/,
    when: (a) => hasOption(a, '--replace', '--replace-all'),
    does: "imports in place of the documents the deployment's tables hold",
  },
  // data versioning tools: the only copy of a version's data dropped, their own safety checks skipped
  {
    program: 'dvc',
    words: /^gc\b/,
    when: (a) => hasShort(a, 'c') || hasOption(a, '--cloud'),
    does: 'deletes from the remote storage every version of the data the kept commits do not name: the only copies of older versions',
  },
  {
    program: 'datalad',
    words: /^(?:drop|remove)\b/,
    when: (a) =>
      a.some((x, i) => /^(?:kill|availability)$/.test(x) && a[i - 1] === '--reckless') || a.some((x) => /^--reckless=(?:kill|availability)$/.test(x)),
    does: 'drops file content without checking that another copy exists',
  },
  {
    program: 'git',
    words: /^annex (?:drop|dropunused|move)\b/,
    when: (a) => hasOption(a, '--force'),
    does: 'drops annexed content without checking that the required number of copies exist elsewhere',
  },
  {
    program: 'git-annex',
    words: /^(?:drop|dropunused|move)\b/,
    when: (a) => hasOption(a, '--force'),
    does: 'drops annexed content without checking that the required number of copies exist elsewhere',
  },
  // Dgraph's alter endpoint: `{"drop_all": true}` (every predicate and its data), `{"drop_op": "DATA"}`
  {
    program: 'curl',
    words: /^(?:\S+ )*?\S*\/alter\b/,
    when: (a) => a.some((x) => /"drop_all"\s*:\s*true|"drop_op"\s*:\s*"(?:DATA|ALL)"/.test(x)),
    does: "drops a Dgraph database's data (`drop_all`: its schema too)",
  },
];

/** A cloud command that destroys or overwrites live data without a delete verb; null for others. */
export function overwritesLiveData(program: string, args: readonly string[]): Hit | null {
  const words = operands(args).join(' ');
  for (const o of OVERWRITES) {
    if (o.program !== program || !o.words.test(words) || (o.when && !o.when(args))) continue;
    const rule = `${program} ${o.words.exec(words)![0]}`;
    return { rule, reason: `\`${rule}\` ${o.does}` };
  }
  return null;
}
