/**
 * A literal decoded on the command line is known text: `echo <base64> | base64 -d | sh` runs what
 * the base64 says, as `echo 'rm -rf ~' | sh` runs what the echo says. The decoders whose output the
 * line tells — base64 (also basenc, openssl), a hex dump reversed (`xxd -r -p`), gzip, `tr` with
 * ranges (rot13) — pass on the decoded text, which a shell reading it is checked for; a decoding
 * that fails, or a file operand, leaves the text unknown as before.
 */
import { testHoles } from './context.ts';

// echo 'rm -rf ~' | base64 → cm0gLXJmIH4K; echo 'echo hi' | base64 → ZWNobyBoaQo=
const RM = 'cm0gLXJmIH4K';
const HI = 'ZWNobyBoaQo=';
// echo 'rm -rf ~' | gzip -n | base64 -w0
const RM_GZ = 'H4sIAAAAAAAAAyvKVdAtSlOo4wIAFYVG8wkAAAA=';
// echo 'git push --force origin main' | base64 -w0
const PUSH = 'Z2l0IHB1c2ggLS1mb3JjZSBvcmlnaW4gbWFpbgo=';

testHoles({
  'base64 decoded into a shell': [
    [`echo ${HI} | base64 -d | sh`, `echo ${RM} | base64 -d | sh`],
    [`echo ${RM} | base64 -d`, `echo ${RM} | base64 --decode | bash`],
    [`base64 -d <<< ${HI} | sh`, `base64 -d <<< ${RM} | sh`],
    [`printf %s ${HI} | base64 -di | bash -s`, `printf %s ${PUSH} | base64 -d | bash`],
    [`echo ${HI} | basenc --base64 -d | sh`, `echo ${RM} | basenc --base64 -d | sh`],
    [`echo ${HI} | openssl base64 -d | sh`, `echo ${RM} | openssl enc -d -base64 | sh`],
  ],
  'a hex dump reversed into a shell': [
    ['echo 6563686f206869 | xxd -r -p | sh', 'echo 726d202d7266207e | xxd -r -p | sh'],
    ['echo 6563686f206869 | xxd -r -ps | bash', 'echo 72 6d 20 2d 72 66 20 7e | xxd -r -p | bash'],
  ],
  'gzip decompressed into a shell': [
    [`echo ${RM_GZ} | base64 -d | gunzip`, `echo ${RM_GZ} | base64 -d | gunzip | sh`],
    [`echo ${RM_GZ} | base64 -d | zcat | wc -c`, `echo ${RM_GZ} | base64 -d | gzip -dc | bash`],
  ],
  'tr with ranges (rot13) into a shell': [
    ["echo 'rpub uv' | tr 'A-Za-z' 'N-ZA-Mn-za-m' | sh", "echo 'ez -es ~' | tr 'A-Za-z' 'N-ZA-Mn-za-m' | sh"],
    ["echo 'ECHO HI' | tr A-Z a-z | sh", "echo 'RM -RF ~' | tr A-Z a-z | sh"],
  ],
  'a decoding substituted into a shell, eval or a file a shell runs': [
    [`sh -c "$(echo ${HI} | base64 -d)"`, `sh -c "$(echo ${RM} | base64 -d)"`],
    [`eval "$(echo ${HI} | base64 -d)"`, `eval "$(echo ${RM} | base64 -d)"`],
    [`eval "$(base64 -d <<< ${HI})"`, `eval "$(base64 -d <<< ${RM})"`],
    [`bash <(echo ${HI} | base64 -d)`, `bash <(echo ${RM} | base64 -d)`],
    [`sudo bash -c "$(echo ${HI} | base64 -d)"`, `bash -lc "$(echo 726d202d7266207e | xxd -r -p)"`],
    [`x="$(echo ${RM} | base64 -d)"; echo "$x"`, `source <(echo ${RM_GZ} | base64 -d | gunzip)`],
  ],
  'what the line does not tell stays unknown': [
    // a file operand, or text that is not base64: nothing decoded (allowed as any unknown script is)
    ['base64 -d payload.txt | sh', `echo ${RM} | base64 -d | sh`],
    ['echo not-base64! | base64 -d | sh', `echo ${RM} | base64 -d | sh`],
  ],
});
