import { type ArgsCheck, type Hit, hasOption, hasShort, operandAt } from './args.ts';

/**
 * The infra family's object stores past aws, gcloud, gsutil and az (infra-cloud.ts): the clients
 * of S3 and its kin (`s3cmd`, `s5cmd`, MinIO's `mc`), Backblaze's `b2`, Azure's `azcopy`, and the
 * clients of Alibaba's OSS, Tencent's COS and Huawei's OBS (`ossutil`, `coscli`, `obsutil`). As
 * `aws s3 rm --recursive` and `gsutil rm -r` are, a removal of everything under a path is asked —
 * recursive, or a pattern that spans the whole path (`s3://b/*`, `gs://b/**`) — and so is a
 * bucket's removal. One object (`s3cmd del s3://b/x.json`), a pattern that picks some
 * (`s3://b/logs/*.log`), listings and copies pass.
 */

/** An object store URL whose object part is a pattern spanning everything under a prefix: `s3://b/*`, `gs://b/logs/**`, `s3://b/**\/*`. */
const SPANNING = /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/(?:[^*?[]*\/)?\*\*?(?:\/\*\*?)*$/i;

/** Whether an operand names everything under a path by a pattern (SPANNING), not some objects (`*.log`). */
export function spansPath(operand: string): boolean {
  return SPANNING.test(operand);
}

function hit(rule: string, what: string): Hit {
  return { rule, reason: `\`${rule}\` ${what}; deleted objects are gone unless the bucket keeps versions` };
}

/** `-r`, `-R`, `--recursive` (also `=true`). */
function recursive(args: readonly string[]): boolean {
  return hasShort(args, 'r') || hasShort(args, 'R') || hasOption(args, '--recursive');
}

/** The removal verbs of a client and whether they delete everything under a path: recursive, or a spanning pattern among the operands. */
function removesAll(args: readonly string[], from: number): boolean {
  return recursive(args) || args.slice(from).some(spansPath);
}

const S3CMD_VALUED = new Set(['-c', '--config', '--access_key', '--secret_key', '--host', '--host-bucket', '--region', '--bucket-location']);
const S5CMD_VALUED = new Set(['--endpoint-url', '--profile', '--credentials-file', '--numworkers', '--retry-count', '--log', '-r']);
const MC_VALUED = new Set(['--config-dir', '-C']);
const B2_VALUED = new Set(['--profile']);
/** `ossutil`, `coscli`, `obsutil`: `rm -r|-rf URL` deletes every object under it, `rb`/`removebucket`/`rb -f` the bucket. */
const CHINA_CLOUDS_VALUED = new Set(['-c', '--config-file', '--config-path', '-e', '--endpoint', '-i', '-k']);
function chinaCloudStore(program: string): ArgsCheck {
  return (args) => {
    const i = operandAt(args, CHINA_CLOUDS_VALUED);
    const sub = args[i];
    if (sub === 'rb' || sub === 'removebucket') return hit(`${program} ${sub}`, 'deletes a bucket');
    if ((sub === 'rm' || sub === 'remove') && removesAll(args, i + 1)) return hit(`${program} rm -r`, 'deletes every object under the path');
    return null;
  };
}
const AZCOPY_VALUED = new Set(['--log-level', '--output-type', '--trusted-microsoft-suffixes']);

export const OBJECT_STORE_TOOLS: Record<string, ArgsCheck> = {
  s3cmd: (args) => {
    const i = operandAt(args, S3CMD_VALUED);
    const sub = args[i];
    if (sub === 'rb') return hit('s3cmd rb', 'deletes a bucket (with `--recursive`, every object in it first)');
    if ((sub === 'del' || sub === 'rm') && removesAll(args, i + 1)) return hit(`s3cmd ${sub} --recursive`, 'deletes every object under the path');
    return null;
  },
  s5cmd: (args) => {
    // `-r` is s5cmd's retry count before the command: its own options come after it
    const i = operandAt(args, S5CMD_VALUED);
    const sub = args[i];
    if (sub === 'rb') return hit('s5cmd rb', 'deletes a bucket');
    if (sub === 'rm' && args.slice(i + 1).some(spansPath)) return hit('s5cmd rm', 'deletes every object the pattern matches under the path');
    return null;
  },
  mc: (args) => {
    const i = operandAt(args, MC_VALUED);
    const sub = args[i];
    if (sub === 'rb') return hit('mc rb', 'deletes a bucket (with `--force`, every object in it)');
    if (sub === 'rm' && removesAll(args, i + 1)) return hit('mc rm --recursive', 'deletes every object under the path');
    return null;
  },
  b2: (args) => {
    const i = operandAt(args, B2_VALUED);
    const sub = args[i];
    if (sub === 'delete-bucket' || (sub === 'bucket' && args[operandAt(args, B2_VALUED, i + 1)] === 'delete'))
      return hit('b2 bucket delete', 'deletes a bucket');
    if (sub === 'rm' && removesAll(args, i + 1)) return hit('b2 rm --recursive', 'deletes every file under the path');
    return null;
  },
  azcopy: (args) => {
    const i = operandAt(args, AZCOPY_VALUED);
    const sub = args[i];
    return (sub === 'remove' || sub === 'rm') && removesAll(args, i + 1) ? hit(`azcopy ${sub} --recursive`, 'deletes every blob or file under the path') : null;
  },
  ossutil: chinaCloudStore('ossutil'),
  ossutil64: chinaCloudStore('ossutil64'),
  coscli: chinaCloudStore('coscli'),
  obsutil: chinaCloudStore('obsutil'),
};
