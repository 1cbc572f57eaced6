/**
 * The folder a command runs in across subshells: a `cd` inside `( )` moves the commands after it
 * there, not those after the subshell (`(cd "$D" && ls) > out.zip` writes out.zip where the line
 * started; `(cd /tmp && ls) && rm -rf *` removes in the project). One in `$( )` still moves the
 * commands after it (shell.ts substitution): `DIR="$(cd ~ && pwd)"` is mostly followed by paths
 * under `$DIR`, which that folder then resolves.
 */

/** What a walk knows of its folder (walk-state.ts Walk): restored as it was when a subshell is left. */
export interface FolderState {
  cwd: string | null;
  fallback: string | null;
  chained: boolean;
}

/** The subshells a walk is in, outermost first, each with the folder state it was entered with. */
export class SubshellFolders {
  private open: Array<{ id: number; saved: FolderState }> = [];

  /** Moves `state` to the subshells `ids` (a command's SimpleCommand.subshells): those left give back the state they were entered with. */
  enter(ids: readonly number[] | undefined, state: FolderState): void {
    const want = ids ?? [];
    let same = 0;
    while (same < this.open.length && same < want.length && this.open[same]!.id === want[same]) same++;
    if (same < this.open.length) {
      Object.assign(state, this.open[same]!.saved);
      this.open.length = same;
    }
    for (const id of want.slice(same)) this.open.push({ id, saved: { cwd: state.cwd, fallback: state.fallback, chained: state.chained } });
  }
}
