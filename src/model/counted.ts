/** `n` and the word for that many: `1 decision`, `0 decisions`, `2 memories` (`many` when the plural is not `one` + s). Pure. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
