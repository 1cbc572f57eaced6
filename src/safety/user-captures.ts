import { ffmpegDevice } from './captured-streams.ts';
import type { Invocation } from './command.ts';
import type { ToolCredential } from './tool-credentials.ts';

/**
 * What captures the user or the traffic of other programs (docs/safety.md, "Credentials and the
 * hosts they belong to"): the keys typed (`xinput test`, `logkeys`, `evtest`, a read of
 * `/dev/input/*`), the screen (`import -window root`, `scrot`, `grim`, `xwd -root`,
 * `screencapture`, `gnome-screenshot`), the microphone (`arecord`, `parecord`, `rec`), the camera
 * (`fswebcam`, `imagesnap`), the clipboard (`xclip -o`, `xsel`, `pbpaste`, `wl-paste`), the
 * packets on the wire (`tcpdump -w -|-A|-X`, `tshark -w -`, `dumpcap -w -`, `ngrep`), and what other
 * processes read and write traced from outside (`strace -p`, `ltrace -p`, bpftrace's user
 * probes, `sysdig -A`, `sslsniff`). Each holds passwords the user types, sees or copies. Printed
 * (USER_CAPTURES) or written to a file the line names (capturedFiles), then sent off the machine,
 * it is a leak, as `gh auth token` sent is (exfiltration.ts); kept here, it is not.
 */

/** The words that are not options, read loosely. */
const operands = (a: readonly string[]) => a.filter((x) => !x.startsWith('-'));
const has = (a: readonly string[], ...names: string[]) => a.some((x) => names.includes(x) || names.some((n) => n.startsWith('--') && x.startsWith(`${n}=`)));
/** The value of the first of these options (`-w -`, `--output=x`). */
function valueOf(a: readonly string[], ...names: string[]): string | null {
  for (let i = 0; i < a.length; i++) {
    for (const n of names) {
      if (a[i] === n) return a[i + 1] ?? null;
      if (n.startsWith('--') && a[i]!.startsWith(`${n}=`)) return a[i]!.slice(n.length + 1);
    }
  }
  return null;
}
const toStdout = (f: string | null) => f === '-' || f === '/dev/stdout' || (f?.endsWith(':-') ?? false) || f === 'pipe:1';

/** A recorder whose last operand (past the values of `valued`) is the file it writes (`-` or none: its output). */
const recorder =
  (what: string, lists: readonly string[], valued: readonly string[] = []) =>
  (a: readonly string[]) => {
    if (has(a, ...lists)) return null;
    const last = a.filter((x, i) => !x.startsWith('-') && !valued.includes(a[i - 1] ?? '')).at(-1);
    return last === undefined || toStdout(last) ? what : null;
  };

/** The recorders' options that take a value (arecord's, parecord's, sox's). */
const RECORDER_VALUED = [
  '-f',
  '-d',
  '-r',
  '-c',
  '-D',
  '-t',
  '-s',
  '-B',
  '-F',
  '-b',
  '-e',
  '-v',
  '--format',
  '--duration',
  '--rate',
  '--channels',
  '--device',
  '--file-type',
  '--file-format',
  '--latency-msec',
];

/** `tcpdump`/`tshark`/`dumpcap`: packets written to the output (`-w -`), or their payloads printed (`-A`, `-X`, `-x`, `-V`). */
const packets = (program: string) => (a: readonly string[]) => {
  if (has(a, '-D', '--list-interfaces', '-L', '--list-data-link-types')) return null;
  if (toStdout(valueOf(a, '-w'))) return `${program} -w -`;
  if (program !== 'dumpcap' && a.some((x) => /^-[A-Za-z]*[AXxV]/.test(x) && !x.startsWith('--'))) return `${program} -A`;
  return null;
};

/** A tracer attached to another process (`-p PID`): the data it reads and writes, printed. */
const attached = (program: string) => (a: readonly string[]) =>
  a.some((x) => /^(-p|--attach)(=|\d|$)/.test(x)) && valueOf(a, '-o', '--output') === null ? `${program} -p` : null;

/** bpftrace's program probing another program's functions (`uprobe:`, `uretprobe:`, `usdt:`), whose arguments it prints. */
const bpftraceProbes = (a: readonly string[]) => {
  const program = valueOf(a, '-e') ?? '';
  return /\b(?:uprobe|uretprobe|usdt|u|ur):/.test(program) ? 'bpftrace uprobe' : null;
};

/** Any program reading the input devices' events (`cat /dev/input/event0`, `dd if=/dev/input/mice`). */
const inputDevice = (a: readonly string[]) => a.find((x) => /(?:^|=)\/dev\/input\/(?:event\d+|mice|mouse\d+|by-(?:id|path)\/.+-event-kbd)$/.test(x)) ?? null;

export const USER_CAPTURES: readonly ToolCredential[] = [
  {
    what: 'what the user types, sees, says or copies, or what other programs send',
    printers: [
      // keys typed
      { program: 'xinput', prints: (a) => (operands(a)[0] === 'test' || operands(a)[0] === 'test-xi2' ? 'xinput test' : null) },
      { program: 'logkeys', prints: (a) => (has(a, '-s', '--start') ? 'logkeys --start' : null) },
      { program: 'evtest', prints: (a) => (operands(a).length ? 'evtest' : null) },
      { program: '*', prints: inputDevice },
      // the screen
      { program: 'import', prints: (a) => (a.includes('root') && toStdout(operands(a).at(-1) ?? null) ? 'import -window root' : null) },
      { program: 'xwd', prints: (a) => (has(a, '-root') && valueOf(a, '-out') === null ? 'xwd -root' : null) },
      { program: 'grim', prints: recorder('grim', []) },
      { program: 'maim', prints: recorder('maim', []) },
      { program: 'scrot', prints: (a) => (toStdout(operands(a).at(-1) ?? null) ? 'scrot -' : null) },
      { program: 'flameshot', prints: (a) => (has(a, '-r', '--raw') ? 'flameshot --raw' : null) },
      // the microphone and the camera; ffmpeg's capture written to its output (`ffmpeg -f pulse -i default -f wav -`)
      { program: 'ffmpeg', prints: (a) => (ffmpegDevice(a) && /^(?:-|pipe:1?)$/.test(a.at(-1) ?? '') ? ffmpegDevice(a) : null) },
      ...['arecord', 'parecord', 'parec', 'pw-record', 'rec'].map((program) => ({
        program,
        prints: recorder(program, ['-l', '-L', '--list-devices', '--list-pcms'], RECORDER_VALUED),
      })),
      {
        program: 'fswebcam',
        prints: recorder(
          'fswebcam',
          ['--list-inputs', '--list-controls', '--list-framesizes'],
          ['-r', '-d', '-S', '--resolution', '--device', '--skip', '--title'],
        ),
      },
      { program: 'imagesnap', prints: recorder('imagesnap', ['-l']) },
      // the clipboard
      { program: 'xclip', prints: (a) => (has(a, '-o', '-out') ? 'xclip -o' : null) },
      { program: 'xsel', prints: (a) => (has(a, '-i', '--input', '-a', '--append', '-c', '--clear', '-d', '--delete', '-f', '--follow') ? null : 'xsel') },
      { program: 'pbpaste', prints: () => 'pbpaste' },
      { program: 'wl-paste', prints: (a) => (has(a, '-l', '--list-types') ? null : 'wl-paste') },
      { program: 'termux-clipboard-get', prints: () => 'termux-clipboard-get' },
      // packets on the wire
      ...['tcpdump', 'tshark', 'dumpcap'].map((program) => ({ program, prints: packets(program) })),
      { program: 'ngrep', prints: () => 'ngrep' },
      // other processes' reads and writes, traced
      { program: 'strace', prints: attached('strace') },
      { program: 'ltrace', prints: attached('ltrace') },
      { program: 'bpftrace', prints: bpftraceProbes },
      { program: 'sysdig', prints: (a) => (a.some((x) => /^-[A-Za-z]*[AX]/.test(x) || x === 'echo_fds' || x === 'spy_users') ? 'sysdig -A' : null) },
      ...['sslsniff', 'sslsniff-bpfcc', 'bashreadline', 'bashreadline-bpfcc'].map((program) => ({ program, prints: () => program })),
    ],
    hosts: [],
  },
];

/** The files a capturing program writes (`scrot /tmp/s.png`, `tcpdump -w /tmp/c.pcap`), what it captures, or null. */
export function capturedFiles(inv: Invocation): { files: { file: string; word: Invocation['args'][number] | null }[]; what: string } | null {
  const a = inv.args;
  const v = a.map((w) => w.value);
  const option = (...names: string[]) => {
    const i = v.findIndex((x) => names.includes(x));
    return i >= 0 && a[i + 1] && !toStdout(v[i + 1]!) ? { file: v[i + 1]!, word: a[i + 1]! } : null;
  };
  const lastOperand = () => {
    const w = a.findLast((x) => !x.value.startsWith('-'));
    return w && !toStdout(w.value) ? { file: w.value, word: w } : null;
  };
  const one = (what: string, f: { file: string; word: Invocation['args'][number] | null } | null) => (f ? { files: [f], what } : null);
  switch (inv.program) {
    case 'scrot':
    case 'grim':
    case 'maim':
    case 'screencapture':
    case 'fswebcam':
    case 'imagesnap':
      return one(`${inv.program} (the screen or the camera)`, lastOperand());
    case 'import':
      return v.includes('root') ? one('import -window root', lastOperand()) : null;
    case 'gnome-screenshot':
    case 'spectacle':
      return one(inv.program, option('-f', '--file', '-o', '--output'));
    case 'xwd':
      return v.includes('-root') ? one('xwd -root', option('-out')) : null;
    case 'arecord':
    case 'parecord':
    case 'pw-record':
    case 'rec':
      return one(`${inv.program} (the microphone)`, lastOperand());
    case 'logkeys':
      return one('logkeys', option('-o', '--output'));
    case 'tcpdump':
    case 'tshark':
    case 'dumpcap':
      return one(`${inv.program} -w`, option('-w'));
    default:
      return null;
  }
}
