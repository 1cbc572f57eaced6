import { type Hit, operandAt, operands } from './args.ts';

/**
 * The infra family's cloud resources opened to everyone or handed to someone else
 * (docs/safety.md, the infra row): a command of a cloud or database platform's CLI that is not a
 * read (no `list`, `get`, `describe`, `show` among its words) and whose arguments name everyone —
 * the whole internet as a network (`0.0.0.0/0`, `::/0`, `*` as a source, the range `0.0.0.0` to
 * `255.255.255.255`), every user as a principal (`allUsers`, `allAuthenticatedUsers`, gsutil's
 * `AllUsers`, a policy's `"Principal": "*"`, `--principal '*'`, a snapshot's or an image's `all`
 * group), a public canned ACL (`public-read`), a container's public access (`--public-access
 * blob|container`), a function URL without auth (`--auth-type NONE`), a database made publicly
 * accessible, an account's public-access block turned off (`BlockPublicAcls=false`,
 * `--no-public-access-prevention`), an SSH key put into an instance's metadata or OS Login turned
 * off. And the operations whose name says they change who may reach a resource, for any value:
 * aws's `put-…-acl|policy`, `set-…-policy|attributes`, `put-public-access-block`, `import-key-pair`,
 * `send-ssh-public-key`, `leave-organization`, `disassociate-*`; a bucket's versioning suspended.
 */

/** The CLIs read here: their every object is live infrastructure or an account's data. */
const CLOUD_CLIS = new Set(['aws', 'gcloud', 'gsutil', 'az', 'doctl', 'supabase', 'atlas', 'hcloud', 'scw', 'linode-cli', 'oci', 'ibmcloud', 'exo']);

/** Command words that only read. */
const READS = /^(?:list|ls|get|describe|show|get-[\w-]+|describe-[\w-]+|list-[\w-]+|show-[\w-]+|what-if|validate)$/;

/** An argument that names everyone: the internet, every user, a public ACL or access level. */
const EVERYONE: readonly RegExp[] = [
  /(?:^|[=,:\s'"[])0\.0\.0\.0\/0\b/,
  /(?:^|[=,:\s'"[])::\/0\b/,
  /\ball(?:Authenticated)?Users\b/i,
  /"Principal"\s*:\s*(?:"\*"|\{\s*"AWS"\s*:\s*"\*"\s*\})/,
  /^public-read(?:-write)?$/,
  /^Group=all\b|Group=all\}/,
  /\bBlock(?:Public(?:Acls|Policy))\s*=\s*false\b/i,
];

/** Options whose value, when it is everyone's, opens the resource. */
const EVERYONE_VALUED: Readonly<Record<string, RegExp>> = {
  '--source-address-prefixes': /^\*$/,
  '--source-address-prefix': /^\*$/,
  '--principal': /^\*$/,
  '--group-names': /^all$/,
  '--values-to-add': /^all$/,
  '--public-access': /^(?:blob|container)$/,
  '--auth-type': /^NONE$/i,
  '--end-ip-address': /^255\.255\.255\.255$/,
};

/** Flags that open the resource by themselves. */
const OPENING_FLAGS = new Set(['--publicly-accessible', '--no-public-access-prevention', '--allow-blob-public-access']);

/** aws operations that change who may reach a resource, whatever their values. */
const AWS_ACCESS_OPERATION =
  /^(?:put|set)-[\w-]*(?:acl|policy)$|^set-[\w-]*attributes$|^put-public-access-block$|^add-permission$|^import-key-pair$|^send-(?:serial-console-)?ssh-public-key$|^leave-organization$|^disassociate-/;

/** The value an option was given (`--x v`, `--x=v`), every time it was. */
function valuesOf(args: readonly string[], name: string): string[] {
  const out: string[] = [];
  args.forEach((a, i) => {
    if (a === name && i + 1 < args.length) out.push(args[i + 1]!);
    else if (a.startsWith(`${name}=`)) out.push(a.slice(name.length + 1));
  });
  return out;
}

/** What in `args` opens the resource to everyone, or null. */
function openedBy(args: readonly string[]): string | null {
  for (const a of args) {
    if (OPENING_FLAGS.has(a)) return a;
    if (EVERYONE.some((re) => re.test(a))) return a.length > 40 ? `${a.slice(0, 40)}…` : a;
  }
  for (const [name, re] of Object.entries(EVERYONE_VALUED)) {
    const v = valuesOf(args, name).find((x) => re.test(x));
    if (v !== undefined) return `${name} ${v}`;
  }
  // an SSH key into an instance's or a project's metadata, OS Login turned off
  const metadata = [...valuesOf(args, '--metadata'), ...valuesOf(args, '--metadata-from-file')];
  const opened = metadata.find((m) => /(?:^|,)(?:ssh-keys|sshKeys)=|enable-oslogin=false/i.test(m));
  return opened === undefined ? null : `--metadata ${opened.split('=')[0]}`;
}

/** A cloud CLI's command that opens a resource to everyone or changes who may reach it; null for others and for reads. */
export function openedToEveryone(program: string, args: readonly string[]): Hit | null {
  if (!CLOUD_CLIS.has(program)) return null;
  const words = operands(args).slice(0, 5);
  if (words.some((w) => READS.test(w))) return null;
  if (program === 'aws') {
    const i = operandAt(args);
    const op = args[operandAt(args, undefined, i + 1)] ?? '';
    const suspended = op === 'put-bucket-versioning' && args.some((a) => /Status=Suspended|"Status"\s*:\s*"Suspended"/.test(a));
    if (AWS_ACCESS_OPERATION.test(op) || suspended)
      return {
        rule: `aws ${args[i]} ${op}`,
        reason: suspended
          ? '`aws s3api put-bucket-versioning` suspended: the bucket keeps no old versions any more, so what is overwritten or deleted next is gone for good'
          : `\`aws ${args[i]} ${op}\` changes who may reach a live resource — a policy, an ACL, a key or an account's membership — and whoever it lets in can act at once`,
      };
  }
  const by = openedBy(args);
  if (by === null) return null;
  const rule = `${program} ${words.slice(0, 3).join(' ')}`.trim();
  return {
    rule,
    reason: `\`${rule}\` opens a live resource to everyone (\`${by}\`): anyone on the internet may reach it, its data or its login from then on`,
  };
}
