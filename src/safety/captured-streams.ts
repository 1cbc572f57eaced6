import type { Invocation } from './command.ts';
import type { Finding } from './git-rules.ts';

/**
 * The screen, the microphone or the camera streamed off the machine by a media tool in one
 * command (docs/safety.md, "Credentials and the hosts they belong to"): ffmpeg reading a capture
 * device (`-f x11grab|gdigrab|kmsgrab|avfoundation|dshow|v4l2|alsa|pulse|jack …`) and writing to a
 * network URL (`udp://`, `tcp://`, `rtmp://`, `srt://`, `rtsp://`, `icecast://`, `http://` …),
 * GStreamer's pipeline from a capture source (`ximagesrc`, `pulsesrc`, `v4l2src` …) to a network
 * sink (`tcpclientsink`, `udpsink`, `rtmpsink` …), VLC's capture (`screen://`, `v4l2://`) with a
 * stream output (`--sout`). What it shows is what the user sees, says and types. ffmpeg's capture
 * written to its output (`-f wav -`) is a printer (user-captures.ts); written to a file, or read
 * from a file (`ffmpeg -i in.mp4 out.mp4`), it is not sent.
 */

/** ffmpeg's input formats that capture a device rather than read a file. */
const FFMPEG_DEVICES = new Set([
  'x11grab',
  'gdigrab',
  'kmsgrab',
  'fbdev',
  'avfoundation',
  'dshow',
  'v4l2',
  'video4linux2',
  'alsa',
  'pulse',
  'jack',
  'oss',
  'sndio',
  'openal',
  'vfwcap',
  'android_camera',
  'pipewiregrab',
  'decklink',
]);
/** A URL of a protocol that sends over the network. */
const NETWORK_URL = /^(?:udp|tcp|rtmps?|rtmpt|rtp|srtp|srt|rist|rtsps?|icecast|https?|ftp|sftp|tls|zmq|mmsh|mmst|gopher):\/\//i;
/** A loopback URL: the stream stays on this machine. */
const LOOPBACK = /^[a-z0-9]+:\/\/(?:[^@/]*@)?(?:localhost|127\.\d+\.\d+\.\d+|\[::1\])(?:[:/]|$)/i;

/** The capture device ffmpeg reads (`-f x11grab -i :0`), or null when it reads files only. */
export function ffmpegDevice(args: readonly string[]): string | null {
  let format: string | null = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-f') format = args[i + 1] ?? null;
    if (args[i] === '-i' && format && FFMPEG_DEVICES.has(format)) return `ffmpeg -f ${format}`;
    if (args[i] === '-i') format = null;
  }
  return null;
}

/** ffmpeg's outputs: the words after its last input that are no option or option value. */
function ffmpegOutputs(args: readonly string[]): string[] {
  const last = args.lastIndexOf('-i');
  const out: string[] = [];
  for (let i = last + 2; i < args.length; i++) {
    if (args[i]!.startsWith('-') && args[i] !== '-') {
      i++;
      continue;
    }
    out.push(args[i]!);
  }
  return out;
}

/** GStreamer's capture sources and network sinks. */
const GST_SOURCES =
  /^(?:ximagesrc|pulsesrc|alsasrc|v4l2src|avfvideosrc|osxaudiosrc|pipewiresrc|dx9screencapsrc|d3d11screencapturesrc|d3d12screencapturesrc|gdiscreencapsrc|wasapisrc|wasapi2src|autoaudiosrc|autovideosrc|jackaudiosrc)$/;
const GST_SINKS =
  /^(?:tcpclientsink|tcpserversink|udpsink|multiudpsink|rtmpsink|rtmp2sink|srtsink|srtclientsink|srtserversink|souphttpclientsink|shout2send|ristsink|rtspclientsink|webrtcsink|whipsink|whipclientsink)$/;
/** VLC's capture inputs. */
const VLC_CAPTURE = /^(?:screen|v4l2|alsa|pulse|dshow|avcapture|qtcapture|jack):\/\//;

/** A capture device streamed off the machine by `inv`, or null. */
export function checkStreamedCapture(inv: Invocation): Finding | null {
  const a = inv.args.map((w) => w.value);
  let what: string | null = null;
  if (inv.program === 'ffmpeg') {
    const device = ffmpegDevice(a);
    const sent = device ? ffmpegOutputs(a).find((o) => NETWORK_URL.test(o) && !LOOPBACK.test(o)) : undefined;
    if (sent) what = `${device} … ${sent}`;
  } else if (/^gst-launch(?:-1\.0)?$/.test(inv.program)) {
    const elements = a.map((x) => x.split(/\s+/)[0]!);
    const source = elements.find((e) => GST_SOURCES.test(e));
    const sink = elements.find((e) => GST_SINKS.test(e));
    if (source && sink && !a.some((x) => /^host=(?:localhost|127\.)/.test(x))) what = `${inv.program} ${source} … ${sink}`;
  } else if (inv.program === 'vlc' || inv.program === 'cvlc') {
    const input = a.find((x) => VLC_CAPTURE.test(x));
    if (input && a.some((x) => x === '--sout' || x.startsWith('--sout='))) what = `${inv.program} ${input} --sout`;
  }
  return what
    ? {
        rule: 'secrets.exfiltration',
        reason: `\`${what}\` streams the screen, the microphone or the camera off this machine: what the user sees, says and types (passwords among it) never leaves it through an agent. Ask the user.`,
      }
    : null;
}
