/**
 * The backup, sync and share tools that read whole folders to send them elsewhere (docs/safety.md,
 * "What a command does with a path"): each folder they are handed is read as `tar c` reads one, so
 * a folder of secrets (`~/.ssh`, `~/.aws`, `~/.gnupg`, the home folder) handed to one is a read of
 * the secrets in it — `borg create`, `restic backup`, `kopia snapshot create`, `duplicity`,
 * `rdiff-backup`, `tarsnap -c`, `unison`, `mutagen sync create`, `ipfs add`, `croc send`,
 * `wormhole send`, `wandb artifact put` and `wandb sync`, `mlflow artifacts log-artifact(s)`,
 * `syncthing cli config folders add`, `huggingface-cli upload`, `hf upload`. The project's own
 * folders pass (`restic backup ./docs`, `croc send dist.zip`, `ipfs add -r ./dist`).
 */

/** Each program and the words (after its global options) under which it reads the folders it is handed; `[]`: any use. */
const BACKUP_VERBS: Record<string, readonly (readonly string[])[]> = {
  borg: [['create']],
  borgmatic: [['create']],
  restic: [['backup']],
  kopia: [['snapshot', 'create'], ['snapshot']],
  duplicity: [[]],
  duplicati: [['backup']],
  'rdiff-backup': [[]],
  unison: [[]],
  mutagen: [['sync', 'create']],
  ipfs: [['add']],
  croc: [['send']],
  wormhole: [['send']],
  'magic-wormhole': [['send']],
  wandb: [['artifact', 'put'], ['sync']],
  mlflow: [
    ['artifacts', 'log-artifacts'],
    ['artifacts', 'log-artifact'],
  ],
  syncthing: [['cli', 'config', 'folders', 'add']],
  'huggingface-cli': [['upload'], ['upload-large-folder']],
  hf: [['upload'], ['upload-large-folder']],
};

/** Whether `program` with these arguments reads the folders it names whole to back them up, sync or share them. */
export function backsUpTrees(program: string, args: readonly string[]): boolean {
  if (program === 'tarsnap') return args.some((x) => /^-[A-Za-z]*c/.test(x));
  const verbs = BACKUP_VERBS[program];
  if (!verbs) return false;
  const words = args.filter((x) => !x.startsWith('-'));
  // the verb after the global options and their values (`restic -r s3:… backup`)
  return verbs.some((v) => v.length === 0 || words.some((_, at) => v.every((w, i) => words[at + i] === w)));
}
