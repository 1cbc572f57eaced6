import type { ArgsCheck } from './args.ts';

/**
 * The infra family's hypervisor CLIs whose commands are `OBJECT.VERB` words, which the
 * unknown-command rule (split at `-` and `:`) does not read: VMware's govc — `vm.destroy` (a machine
 * and its disks), `datastore.rm`, `disk.rm`, `snapshot.remove`, `library.rm`, `volume.rm`, any
 * object's `.destroy` (a pool, a folder and the machines in it, a cluster). Reads pass (`vm.info`,
 * `ls`, `snapshot.tree`).
 */

/** The objects whose data goes with a removal (`snapshot.remove`, `datastore.rm`); `.destroy` of any object. */
const DATA_OBJECTS = /^(?:vm|datastore|disk|snapshot|library|volume)\.(?:rm|remove|delete)$/;

const govc: ArgsCheck = (args) => {
  const command = args.find((a) => !a.startsWith('-'));
  if (!command || !(/^[a-z.]+\.destroy$/.test(command) || DATA_OBJECTS.test(command))) return null;
  return {
    rule: `govc ${command}`,
    reason: `\`govc ${command}\` deletes what vSphere holds — a machine with its disks, a datastore's files, a snapshot — and nothing keeps another copy`,
  };
};

export const HYPERVISOR_TOOLS: Record<string, ArgsCheck> = { govc };
