/**
 * The files that hold other processes' memory (docs/safety.md, "Credentials and paths spelled
 * another way"): a process's address space (`/proc/<pid>/mem`), the kernel's and the machine's
 * (`/proc/kcore`, `/dev/mem`, `/dev/kmem`), and the core dumps the system keeps of crashed
 * programs (systemd-coredump's, apport's `/var/crash`). An ssh-agent's keys, a gpg-agent's pass
 * phrases and a shell's tokens lie there in the clear. The core dumps are secret paths
 * (path-rules.ts adds PROCESS_MEMORY_PATHS to SECRET_PATHS; listing their folders stays free: `ls
 * /var/crash`, `coredumpctl list`, as `ls ~/.ssh` is). A file of `/proc` or `/dev` is named by a
 * number or a name a substitution or a variable finds (`/proc/$(pgrep x)/mem`, `/dev/$DISK`), which
 * a pattern would match for every file there (`/proc/$(pgrep x)/status`, `find /dev`): its read is
 * a printer of memory instead (readsProcessMemory), denied where what it prints is sent off, as
 * `/proc/<pid>/environ`'s is.
 */
export const PROCESS_MEMORY_PATHS: readonly string[] = ['/var/lib/systemd/coredump/*', '/var/crash/*', '/var/lib/apport/coredump/*'];

/** A process's memory file, the kernel's or the machine's (`/proc/kcore`, `/dev/mem`), alone or as an option's value (`/proc/1/mem`, `if=/proc/$(pgrep x)/mem`, `/proc/self/task/2/mem`). */
const MEM_FILE = /(?:^|=)(?:\/proc\/(?:kcore|[^/]+\/(?:task\/[^/]+\/)?mem)|\/dev\/k?mem)$/;

/** What reads a process's memory among a command's words (`dd if=/proc/<pid>/mem`), or null. */
export function readsProcessMemory(args: readonly string[]): string | null {
  const file = args.find((a) => MEM_FILE.test(a));
  return file ? `a read of ${file.replace(/^[^=]*=/, '')}` : null;
}
