import { testHoles } from './context.ts';

/**
 * Text decoded before it runs — by an interpreter one-liner from a literal, by tr in a pipeline,
 * by the IFS a line sets — and secrets written into what git carries off: [an everyday command,
 * its dangerous neighbour]. `cm0gLXJmIH4=` is base64 for `rm -rf ~`, `ZWNobyBoaQ==` for `echo
 * hi`, `726d202d7266207e` hex for `rm -rf ~`. The context is context.ts's: the project
 * /home/u/proj on main, home /home/u.
 */
testHoles({
  // interpreter-syntax.ts ATOMS: a decoding call of literal text is that text decoded (decoders.ts)
  'a one-liner that decodes a base64 literal and runs it runs the decoding': [
    ['python3 -c \'import base64;print(base64.b64decode("aGk="))\'', 'python3 -c \'import base64,os;os.system(base64.b64decode("cm0gLXJmIH4=").decode())\''],
    [
      'python3 -c \'import base64,os;os.system(base64.b64decode("ZWNobyBoaQ==").decode())\'',
      'python3 -c \'import base64,subprocess;subprocess.run(base64.b64decode(b"cm0gLXJmIH4=").decode("utf-8"),shell=True)\'',
    ],
    [
      'python3 -c \'from base64 import b64decode;import os;os.system(b64decode("ZWNobyBoaQ==").decode())\'',
      'python3 -c \'from base64 import b64decode;import os;os.system(b64decode("cm0gLXJmIH4=").decode())\'',
    ],
    [
      'python3 -c \'import base64,os;c=base64.b64decode("ZWNobyBoaQ==").decode();os.system(c)\'',
      'python3 -c \'import base64,os;c=base64.b64decode("cm0gLXJmIH4=").decode();os.system(c)\'',
    ],
    [
      'node -e \'console.log(Buffer.from("aGk=","base64").toString())\'',
      'node -e \'require("child_process").execSync(Buffer.from("cm0gLXJmIH4=","base64").toString())\'',
    ],
    [
      'node -e \'require("child_process").execSync(Buffer.from("ZWNobyBoaQ==","base64").toString("utf8"))\'',
      'node -e \'require("child_process").execSync(atob("cm0gLXJmIH4="))\'',
    ],
    ['php -r \'echo base64_decode("aGk=");\'', 'php -r \'shell_exec(base64_decode("cm0gLXJmIH4="));\''],
    ['ruby -rbase64 -e \'puts Base64.decode64("aGk=")\'', 'ruby -rbase64 -e \'system(Base64.decode64("cm0gLXJmIH4="))\''],
    ['perl -MMIME::Base64 -e \'print decode_base64("aGk=")\'', 'perl -MMIME::Base64 -e \'system(decode_base64("cm0gLXJmIH4="))\''],
  ],
  'a one-liner that decodes hex or rot13 and runs it runs the decoding': [
    ['perl -e \'print pack("H*", "6869")\'', 'perl -e \'system(pack("H*", "726d202d7266207e"))\''],
    // `cat .env.local` in base64: the protected-path rules judge the decoded command
    ['ruby -rbase64 -e \'system(Base64.decode64("ZWNobyBoaQ=="))\'', 'ruby -rbase64 -e \'system(Base64.decode64("Y2F0IC5lbnYubG9jYWw="))\''],
    ['python3 -c \'print(bytes.fromhex("6869").decode())\'', 'python3 -c \'import os;os.system(bytes.fromhex("726d202d7266207e").decode())\''],
    [
      'python3 -c \'import binascii;print(binascii.unhexlify("6869"))\'',
      'python3 -c \'import binascii,os;os.system(binascii.unhexlify("726d202d7266207e").decode())\'',
    ],
    [
      'node -e \'console.log(Buffer.from("6869","hex").toString())\'',
      'node -e \'require("child_process").execSync(Buffer.from("726d202d7266207e","hex").toString())\'',
    ],
    ['php -r \'echo hex2bin("6869");\'', 'php -r \'system(hex2bin("726d202d7266207e"));\''],
    ['python3 -c \'import codecs;print(codecs.decode("uv","rot13"))\'', 'python3 -c \'import codecs,os;os.system(codecs.decode("ez -es ~","rot13"))\''],
    ['php -r \'echo str_rot13("uv");\'', 'php -r \'system(str_rot13("ez -es ~"));\''],
  ],
  // text-filters.ts trPasses: the shapes tr takes that a rot13, a case change or a deletion is written in
  'text turned back by tr and piped into a shell is that text run': [
    ["echo 'hi' | tr '[:lower:]' '[:upper:]'", "echo 'RM -RF ~' | tr '[:upper:]' '[:lower:]' | sh"],
    ["echo 'uv' | tr '[a-z]' '[n-za-m]'", "echo 'ez -es ~' | tr '[a-z]' '[n-za-m]' | sh"],
    ["printf 'a,b' | tr -d ,", "echo 'rxm -rf ~' | tr -d x | sh"],
    ["echo 'a  b' | tr -s ' '", "echo 'rm -rf x~' | tr -d 'x' | bash"],
    ["echo 'abc' | tr abc xy", "echo 'qm -qf ~' | tr qz r | sh"],
  ],
  // expand.ts ifsMarked / ifsFields: an unquoted expansion, and what read sets, split by the IFS the line set
  'a value split by the IFS the line set runs the words it splits into': [
    ['IFS=,; c="a,b"; echo $c', 'IFS=,; c="rm,-rf,/home/u"; $c'],
    ['IFS=, read -r a b <<< "x,y"; echo $a', 'IFS=: read -r a b <<< "rm:-rf /etc"; $a $b'],
    ['IFS=:; read -r a b <<< "x:y"; echo "$b"', 'IFS=:; read -r a b <<< "rm:/etc"; $a -rf $b'],
    ['IFS=,; c="npm,test"; $c', 'IFS=,; c="npm,publish"; $c'],
    ['IFS=/; p="usr/local"; echo $p', 'IFS=.; c="rm.-rf./etc"; $c'],
  ],
  // network-sinks.ts: git's commands that write a message or a file into what a push carries off
  // (a commit, a tag, a note: refs/notes/axme goes with axme sync) send it as the sinks do
  'secrets written into what git carries off are sent': [
    ['git notes add -m "reviewed"', 'git notes add -m "$(env)"'],
    ['git notes --ref=axme append -m "$(date)"', 'git notes --ref=axme append -m "$(printenv)"'],
    ['git commit -m "fix: $(date +%F)" #!axme pr=none repo=acme/app', 'git commit -m "$(env)" #!axme pr=none repo=acme/app'],
    ['git commit -m "port $PORT" #!axme pr=none repo=acme/app', 'git commit -m "key $AWS_SECRET_ACCESS_KEY" #!axme pr=none repo=acme/app'],
    ['git -C sub commit -F msg.txt #!axme pr=none repo=acme/app', 'env | git -C sub commit -F - #!axme pr=none repo=acme/app'],
    ['git notes add -F notes.txt', 'git notes add -F /proc/self/environ'],
    ['echo "$HOME" >> notes.txt; git add notes.txt', 'echo "$AWS_SECRET_ACCESS_KEY" >> README.md && git add README.md'],
  ],
  // decoders.ts NAMED: the compressions the shell's gunzip reads, as the languages name them
  'a one-liner that decompresses a decoded literal and runs it runs the decompression': [
    [
      'python3 -c \'import zlib,base64;exec(zlib.decompress(base64.b64decode("eJwrKMrMK9Ew1AQADhUCsA==")))\'',
      'python3 -c \'import zlib,base64;exec(zlib.decompress(base64.b64decode("eJzLzC3ILypRyC+2zi/WK64sLknN1VAvylXQLUpTqFPXBAC7BArP")))\'',
    ],
    ['php -r \'echo gzinflate(base64_decode("S03OyFfIyAQA"));\'', 'php -r \'system(gzinflate(base64_decode("K8pV0C1KU6gDAA==")));\''],
    [
      'python3 -c \'import gzip,base64;print(gzip.decompress(base64.b64decode("H4sIAP9mDWsC/yvKVdAtSlOoAwA+LZ7wCAAAAA==")))\'',
      'python3 -c \'import gzip,base64,os;os.system(gzip.decompress(base64.b64decode("H4sIAP9mDWsC/yvKVdAtSlOoAwA+LZ7wCAAAAA==")).decode())\'',
    ],
  ],
  // interpreter-prints.ts: what a one-liner prints of literals is the text a later stage reads
  'a one-liner that prints a decoded literal into a shell runs it': [
    ['python3 -c \'print("hi")\' | sh', 'python3 -c \'print("rm -rf ~")\' | sh'],
    [
      'python3 -c \'import base64;print(base64.b64decode("ZWNobyBoaQ==").decode())\' | sh',
      'python3 -c \'import base64;print(base64.b64decode("cm0gLXJmIH4=").decode())\' | sh',
    ],
    ['node -e \'console.log(atob("aGk="))\' | grep h', 'node -e \'console.log(atob("cm0gLXJmIH4="))\' | sh'],
    ['perl -e \'print "echo hi\\n"\' | bash', 'perl -MMIME::Base64 -e \'print decode_base64("cm0gLXJmIH4=")\' | bash'],
    ['ruby -e \'puts "ez -es ~".tr("a-z", "n-za-m")\' | tr a-z n-za-m | sh', 'ruby -e \'puts "rm -rf ~"\' | sh'],
  ],
  // the `code` calls read their decoded argument as code of the same language
  'code decoded and run as code is read as the one-liner it is': [
    [
      'python3 -c \'import base64;print(base64.b64decode("cHJpbnQoMSk="))\'',
      'python3 -c \'import base64;exec(base64.b64decode("aW1wb3J0IG9zO29zLnN5c3RlbSgncm0gLXJmIH4nKQ=="))\'',
    ],
    ['node -e \'console.log(atob("aGk="))\'', 'node -e \'eval(atob("cmVxdWlyZSgiY2hpbGRfcHJvY2VzcyIpLmV4ZWNTeW5jKCJybSAtcmYgfiIp"))\''],
  ],
});
