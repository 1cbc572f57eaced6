import type { Invocation } from './command.ts';

/**
 * Windows' programs that fetch code and run it in one step (docs/safety.md, "PowerShell
 * evaluating a download"), read as `curl URL | sh` is: `mshta URL` (an HTML application, or
 * `mshta "javascript:…GetObject('script:URL')…"`), `regsvr32 /i:URL scrobj.dll` (a scriptlet's
 * code), `rundll32 javascript:…` (mshtml's script, which fetches what it names), `msiexec /i URL`
 * (an installer's custom actions). A program named with or without `.exe`, any case. A local
 * file passes (`mshta docs\help.hta`, `msiexec /i dist\app.msi`).
 */

const URL = /\bhttps?:\/\/[^\s'"()]+/i;

/** The URL `inv` loads code from and runs it, or `a download` where its script names none; null for any other command. */
export function windowsLoad(inv: Invocation): string | null {
  const program = inv.program.toLowerCase().replace(/\.exe$/, '');
  const args = inv.args.map((w) => w.value);
  switch (program) {
    case 'mshta': {
      const a = args.find((x) => URL.test(x) || /^(?:java|vb)script:/i.test(x));
      return a === undefined ? null : (URL.exec(a)?.[0] ?? 'a download');
    }
    case 'regsvr32': {
      const a = args.find((x) => /^[/-]i:/i.test(x) && URL.test(x));
      return a === undefined ? null : URL.exec(a)![0];
    }
    case 'rundll32': {
      const a = args.find((x) => /^(?:java|vb)script:/i.test(x) || (/\bmshtml\b/i.test(x) && URL.test(x)));
      return a === undefined ? null : (URL.exec(a)?.[0] ?? 'a download');
    }
    case 'msiexec': {
      const at = args.findIndex((x) => /^[/-](?:i|package|a|update)$/i.test(x));
      const target = at >= 0 ? args[at + 1] : args.find((x) => /^[/-](?:i|package):/i.test(x));
      return target !== undefined && URL.test(target) ? URL.exec(target)![0] : null;
    }
    default:
      return null;
  }
}
