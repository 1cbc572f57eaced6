import assert from 'node:assert/strict';
import { test } from 'node:test';
import { terminalText } from '../../src/model/terminal-text.ts';

test("a bidirectional override or isolate in text from git (a remote's commit subject) is shown as its escape: the terminal would display the line in another order than it reads", () => {
  assert.equal(terminalText('fix \u202Eexe.txt\u202C ok'), 'fix \\u202eexe.txt\\u202c ok');
  assert.equal(terminalText('a \u2066b\u2069 c'), 'a \\u2066b\\u2069 c');
});

test("newlines, tabs, axme's own colours and text in any script pass as they are; a colour axme never prints and a lone escape do not", () => {
  assert.equal(terminalText('one\n\ttwo \u001b[31mred\u001b[0m שלום 日本'), 'one\n\ttwo \u001b[31mred\u001b[0m שלום 日本');
  assert.equal(terminalText('\u001b[8mhidden\u001b[0m'), '\\u001b[8mhidden\u001b[0m');
  assert.equal(terminalText('a\rb\u0007'), 'a\\u000db\\u0007');
});
