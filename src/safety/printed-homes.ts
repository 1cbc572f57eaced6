import { programName } from './command.ts';
import type { SimpleCommand } from './shell.ts';

/**
 * The home folder an interpreter one-liner prints and nothing else: Python's
 * `print(os.path.expanduser("~"))`, `print(Path.home())`, `print(os.environ["HOME"])`; node's `-p
 * 'os.homedir()'`, `-e 'console.log(require("os").homedir())'`, `process.env.HOME`; ruby's `puts
 * Dir.home`, `puts ENV["HOME"]`; perl's `print $ENV{HOME}`. known-folders.ts reads a substitution
 * of one as the folder it prints (`rm -rf "$(python3 -c 'import os;print(os.path.expanduser("~"))')/Music"`
 * is `rm -rf ~/Music`), as it reads `$(cd ~ && pwd)`. Code that does more, or prints anything else, is none.
 */
export function printedHome(commands: readonly SimpleCommand[], home: string): string | null {
  if (commands.length !== 1) return null;
  const words = commands[0]!.words.map((w) => w.value);
  const program = programName(words[0] ?? '');
  const lang = /^python[\d.]*$/.test(program)
    ? 'python'
    : /^(node|nodejs|bun)$/.test(program)
      ? 'js'
      : /^ruby[\d.]*$/.test(program)
        ? 'ruby'
        : program === 'perl'
          ? 'perl'
          : null;
  if (!lang || words.length !== 3 || !CODE_FLAGS[lang]!.test(words[1]!)) return null;
  const code = words[2]!.replace(/\s+/g, '');
  return HOME_CODE[lang]!.test(code) ? home : null;
}

/** The option each language's one-liner follows (node's `-p` prints its expression). */
const CODE_FLAGS: Record<string, RegExp> = { python: /^-c$/, js: /^(-e|-p|--eval|--print)$/, ruby: /^-e$/, perl: /^-[lE]*e$/ };

/** The home folder as each language spells it. */
const PY_HOME = String.raw`(?:os\.path\.expanduser\((?:"~"|'~')\)|(?:pathlib\.)?Path\.home\(\)|os\.environ\[(?:"HOME"|'HOME')\]|os\.getenv\((?:"HOME"|'HOME')\))`;
const JS_HOME = String.raw`(?:(?:require\((?:"os"|'os'|"node:os"|'node:os')\)|os)\.homedir\(\)|process\.env\.HOME|process\.env\[(?:"HOME"|'HOME')\])`;

/** A one-liner's whole code (whitespace dropped) that prints the home folder: imports, then one print of it. */
const HOME_CODE: Record<string, RegExp> = {
  python: new RegExp(String.raw`^(?:(?:import[\w.,]+|frompathlibimportPath);)*print\(${PY_HOME}\);?$`),
  js: new RegExp(String.raw`^(?:console\.log\(${JS_HOME}\)|${JS_HOME});?$`),
  ruby: /^puts(?:\(Dir\.home\)|Dir\.home|ENV\[(?:"HOME"|'HOME')\]|\(ENV\[(?:"HOME"|'HOME')\]\))$/,
  perl: /^print\$ENV\{(?:HOME|"HOME"|'HOME')\};?$/,
};
