// A node:test reporter that says nothing while the tests run and, at the end, lists each failed
// test with its file and the first lines of its error. `npm test` runs it beside the TAP reporter,
// so the names of the failures are in the last lines of a long log (a CI page that keeps only the
// tail still shows them).

/** The first lines of what went wrong, without the stack. */
function reason(error) {
  const cause = error?.cause ?? error;
  const text = String(cause?.message ?? cause ?? 'failed');
  return text.split('\n').slice(0, 6).join('\n      ');
}

export default async function* failures(source) {
  const failed = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const d = event.data;
    // a suite fails because a test in it did: the test is what is listed
    if (d.details?.type === 'suite') continue;
    // a todo test may fail: the run passes, and it is not a failure to look into
    if (d.todo !== undefined && d.todo !== false) continue;
    failed.push(`- ${d.file ?? '?'}${d.line ? `:${d.line}` : ''}  ${d.name}\n      ${reason(d.details?.error)}`);
  }
  if (failed.length) yield `\n# ${failed.length} failed:\n${failed.join('\n')}\n`;
}
