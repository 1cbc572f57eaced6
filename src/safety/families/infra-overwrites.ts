import { type Hit, hasOption, hasShort, operands } from './args.ts';

/**
 * The infra family's cloud commands that destroy without a delete verb (docs/safety.md, the infra
 * row): what is imported over a live database, a table overwritten or made to expire, a vault
 * purged past its soft delete, an app's credentials reset, a template deployed in Complete mode
 * (which deletes what it does not name), logs copied to another destination, a subscription's
 * messages skipped; a hosted project's functions, secrets and migrations (supabase); MongoDB
 * Atlas' clusters, snapshots and administrators. And a recursive removal run on a live machine
 * or container through the CLI that reaches it (`gcloud compute ssh --command`, `az vm
 * run-command invoke --scripts`, `doctl compute ssh --ssh-command`, `fly ssh console -C`, `heroku
 * run`, `kubectl exec … --`, `docker exec`): its data goes as a deleted volume's would.
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
  { program: 'az', words: /^ad (?:app|sp) credential reset\b/, does: "makes new credentials for an application's identity; whoever holds them acts as it" },
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
  { program: 'supabase', words: /^functions delete\b/, does: "deletes a hosted project's Edge Function, which its callers need" },
  { program: 'supabase', words: /^secrets (?:set|unset)\b/, does: "replaces or removes a hosted project's secret; its old value cannot be read back" },
  { program: 'supabase', words: /^db push\b/, does: "applies the migrations to the hosted project's live database" },
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
];

/** A recursive removal's option: `-r`, `-rf`, `-R`, `--recursive`. */
const RECURSIVE = /^-(?:[a-zA-Z]*[rR][a-zA-Z]*|-recursive)$/;

/** A folder a removal on a live machine takes data from: absolute, but not a scratch folder. */
const LIVE_FOLDER = /^\/(?!tmp(?:\/|$)|var\/tmp(?:\/|$)|dev\/shm(?:\/|$))/;
/** The options that hand a live machine a command to run: the program's, and which. */
const REMOTE_COMMAND: Readonly<Record<string, readonly string[]>> = {
  gcloud: ['--command'],
  az: ['--scripts'],
  doctl: ['--ssh-command'],
  fly: ['-C', '--command'],
  flyctl: ['-C', '--command'],
};

/** The text of a command a cloud CLI hands a live machine, or null. */
function remoteCommand(program: string, args: readonly string[]): string | null {
  if (program === 'heroku') return operands(args)[0] === 'run' ? args.slice(args.indexOf('run') + 1).join(' ') : null;
  const names = REMOTE_COMMAND[program];
  if (!names) return null;
  const out: string[] = [];
  args.forEach((a, i) => {
    for (const n of names) {
      if (a === n && i + 1 < args.length) out.push(args[i + 1]!);
      else if (a.startsWith(`${n}=`)) out.push(a.slice(n.length + 1));
    }
  });
  return out.length ? out.join('\n') : null;
}

/**
 * Whether a command run in a container or on a live machine (its words, or the text of a command
 * line) removes a folder recursively from an absolute path, not a scratch one: `rm -rf
 * /var/lib/postgresql/data`, `sh -c 'rm -rf /data/*'` (`rm -rf node_modules/.cache`, `rm -rf
 * /tmp/x` pass).
 */
export function removesRecursively(command: readonly string[]): boolean {
  const words = command.join(' ').split(/[\s'"`]+/);
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== 'rm') continue;
    let recursive = false;
    for (let j = i + 1; j < words.length && !/^(?:;|&&|\|\||\|)$/.test(words[j]!); j++) {
      const w = words[j]!.replace(/[;)]+$/, '');
      if (RECURSIVE.test(w)) recursive = true;
      else if (recursive && LIVE_FOLDER.test(w)) return true;
    }
  }
  return false;
}

/** A cloud command that destroys or overwrites live data without a delete verb, or removes a folder on a live machine; null for others. */
export function overwritesLiveData(program: string, args: readonly string[]): Hit | null {
  const words = operands(args).join(' ');
  for (const o of OVERWRITES) {
    if (o.program !== program || !o.words.test(words) || (o.when && !o.when(args))) continue;
    const rule = `${program} ${o.words.exec(words)![0]}`;
    return { rule, reason: `\`${rule}\` ${o.does}` };
  }
  const remote = remoteCommand(program, args);
  if (remote !== null && removesRecursively([remote])) {
    const rule = `${program} ${program === 'heroku' ? 'run' : operands(args).slice(0, 2).join(' ')} … rm -r`;
    return { rule, reason: `\`${rule}\` removes a folder on a live machine, with the data the service keeps there` };
  }
  return null;
}
