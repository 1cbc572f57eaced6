import { testAsks, testHoles } from './context.ts';

/**
 * The red-team's leftovers, each closed where its kind is decided: [an everyday command that must
 * pass, its dangerous neighbour]. The context is context.ts's: the project /home/u/proj on main,
 * home /home/u.
 */

// printf 'rm -rf ~' | base32 → OJWSALLSMYQH4===; printf 'echo hi' | base32 → MVRWQ3ZANBUQ====
const RM32 = 'OJWSALLSMYQH4===';
const HI32 = 'MVRWQ3ZANBUQ====';
// printf 'rm -rf ~' | xxd
const RM_DUMP = '00000000: 726d 202d 7266 207e                      rm -rf ~';
// printf 'rm -rf ~' | uuencode: the header names where uudecode writes it
const uu = (name: string) => `begin 644 ${name}\n(<FT@+7)F('X \n\`\nend\n`;

testHoles({
  // decoders.ts is the one table of the decoders: each writes the decoding of a literal it reads
  'a literal decoded by base32, basenc, xxd, uudecode or python -m base64 into a shell': [
    [`echo ${HI32} | base32 -d | sh`, `echo ${RM32} | base32 -d | sh`],
    [`echo ${RM32} | base32 -d`, `echo ${RM32} | base32 --decode | bash`],
    ['base32 -d notes.b32 | sh', `echo ${RM32} | gbase32 -d | sh`],
    [`echo ${HI32} | basenc --base32 -d | sh`, `echo ${RM32} | basenc --base32 -d | sh`],
    ['basenc --base32hex -d x | sh', 'echo E9MI0BBICOG7S=== | basenc --base32hex -d | sh'],
    ['basenc --base2msbf -d x | sh', 'echo 0111001001101101001000000010110101110010011001100010000001111110 | basenc --base2msbf -d | bash'],
    ['basenc --z85 -d x | sh', "echo 'A+#{JA+lCy' | basenc --z85 -d | sh"],
    ['xxd -r dump.hex > x.bin', `echo '${RM_DUMP}' | xxd -r | sh`],
    ['uudecode x.uu', `uudecode <<'EOF' | sh\n${uu('/dev/stdout')}EOF`],
    [`uudecode <<'EOF' | sh\n${uu('x.sh')}EOF`, `uudecode -o /dev/stdout <<'EOF' | sh\n${uu('x.sh')}EOF`],
    ['uudecode -o out.bin x.uu', "uudecode -p <<'EOF' | sh\nbegin-base64 644 x.sh\ncm0gLXJmIH4=\n====\nEOF"],
    ['echo aGk= | python3 -m base64 -d', 'echo cm0gLXJmIH4= | python3 -m base64 -d | sh'],
    ['python3 -m base64 -e notes.txt', `sh -c "$(echo ${RM32} | base32 -d)"`],
  ],
  // families/system.ts checkUudecode: uudecode writes the file its header (or -o) names
  'uudecode writing the file its header names': [
    [`uudecode <<'EOF'\n${uu('out.txt')}EOF`, `uudecode <<'EOF'\n${uu('~/.bashrc')}EOF`],
    ['uudecode -o out.bin x.uu', 'uudecode -o ~/.profile x.uu'],
    ["printf 'begin 644 x.txt\\n`\\nend\\n' | uudecode", "printf 'begin 644 /etc/cron.d/x\\n`\\nend\\n' | uudecode"],
  ],
  // home-data.ts findsDocuments: what a find's tests select among the user's documents, as its `rm` (`rm ~/Documents/*.docx`)
  "a find whose tests select the user's documents": [
    ["find ~/Documents -name '*.tmp' -delete", "find ~/Documents -name '*.docx' -delete"],
    ['find ~/Documents -name node_modules -prune -exec rm -rf {} +', "find ~/Pictures -name '*.jpg' -exec rm {} +"],
    ["find ~/Documents -name '*.docx' -print", "find ~/Pictures -iname '*.JPG' -mtime +30 -delete"],
    ["find ~/Downloads -name '*.docx' -delete", "find ~/Documents -name 'thesis*' -delete"],
    ["find . -name '*.docx' -delete", "find ~ -maxdepth 1 -name '*.pdf' -delete"],
    ["find ~/code -name '*.pyc' -delete", "find ~/Music -name '*.mp3' -exec shred -u {} +"],
  ],
  // localized-user-dirs.ts: the same folders as xdg-user-dirs names them in other languages
  "the desktop's folders of documents in other languages": [
    ['rm ~/Downloads/thesis.docx', 'rm ~/Dokumente/thesis.docx'],
    ['rm -rf ~/Bilder/node_modules', 'rm ~/Imágenes/vacaciones.jpg'],
    ['rm ~/Bureau/x.tmp', 'rm ~/Bureau/notes.txt'],
    ["find ~/Dokumente -name '*.tmp' -delete", "find ~/Escritorio -name '*.odt' -delete"],
    ['rm ~/Descargas/x.zip', 'rm ~/Документы/отчёт.pdf'],
  ],
});

testHoles({
  // publish-clouds.ts: a release pipeline run, a deployment, an image built and pushed in the cloud — siblings of `gh workflow run deploy`, `docker push`
  "the clouds' rollouts that say no deploy": [
    ['aws codepipeline get-pipeline-state --name p', 'aws codepipeline start-pipeline-execution --name p'],
    ['aws codedeploy list-deployments', 'aws codedeploy create-deployment --application-name a --deployment-group-name prod'],
    ['az acr build -r reg --no-push .', 'az acr build -r reg -t app:1 .'],
    ['az acr login -n reg', 'az acr import -n reg --source docker.io/library/nginx:1'],
  ],
});

testHoles({
  // github-api-rules.ts webhooks: a repository's events sent to a host the hook names, as a repository made public
  'a webhook added or pointed elsewhere through the API': [
    ['gh api repos/o/r/hooks', 'gh api repos/o/r/hooks -f name=web -f config[url]=https://hooks.example.net/x'],
    ['gh api -X POST repos/o/r/hooks/1/pings', 'curl -X POST https://api.github.com/repos/o/r/hooks -d \'{"config":{"url":"https://x.example"}}\''],
    ['gh api -X PATCH repos/o/r/hooks/1 -F active=false', 'gh api -X PATCH repos/o/r/hooks/1/config -f url=https://x.example'],
    ['gh api repos/o/r/hooks/1/deliveries', 'gh api orgs/o/hooks -f name=web -f config[url]=https://x.example'],
    ['gh api repos/o/r/hooks --jq ".[].config.url"', 'gh api repos/o/r/hooks --input hook.json'],
  ],
});

testAsks({
  // github-api-rules.ts UNDOABLE_DELETES: what the next call puts back as it was, and gh's own verbs remove unasked (`gh label delete`)
  'a DELETE through the API of what is put back as it was': [
    ['gh api --method DELETE repos/o/r/labels/wontfix', 'gh api -X DELETE repos/o/r/issues/comments/1'],
    ['gh api -X DELETE repos/o/r/issues/7/labels/bug', 'gh api -X DELETE repos/o/r/milestones/1'],
    ['gh api -X DELETE repos/o/r/issues/comments/9/reactions/3', 'gh api -X DELETE repos/o/r/hooks/1'],
    ['curl -X DELETE -H "Authorization: Bearer $T" https://api.github.com/repos/o/r/labels/bug', 'curl -X DELETE https://api.github.com/repos/o/r'],
    ["gh api -X DELETE 'repos/o/r/actions/caches?key=npm-linux'", 'gh api -X DELETE repos/o/r/environments/prod'],
    ['gh api -X DELETE repos/o/r/pulls/3/requested_reviewers -f "reviewers[]=bob"', 'gh api -X DELETE repos/o/r/keys/12'],
  ],
});

testAsks({
  // infra-cloud.ts awsLiveChange, azLiveChange, gcloudLiveChange: the clouds' `kubectl scale|set|patch`
  "aws's, az's and gcloud's changes to what runs live": [
    ['aws ecs describe-services --cluster c --services s', 'aws ecs update-service --cluster c --service s --desired-count 0'],
    // scaled up or down, as `kubectl scale` (deploy2.test.ts had `--desired-count 2` pass: no rollout, but a change all the same)
    ['aws ecs list-services --cluster c', 'aws ecs update-service --cluster c --service s --desired-count 2'],
    ['aws lambda invoke --function-name f out.json', 'aws lambda update-function-configuration --function-name f --environment Variables={A=1}'],
    ['aws eks update-kubeconfig --name c', 'aws ec2 stop-instances --instance-ids i-1'],
    ['aws dynamodb update-item --table-name t --key k', 'aws rds stop-db-instance --db-instance-identifier d'],
    ['aws sts get-caller-identity', 'aws autoscaling set-desired-capacity --auto-scaling-group-name g --desired-capacity 0'],
    ['aws ssm get-parameter --name x', 'aws ssm send-command --document-name AWS-RunShellScript --targets Key=tag:env,Values=prod'],
    ['az account set -s sub', 'az webapp stop -g g -n app'],
    ['az aks get-credentials -g g -n c', 'az aks scale -g g -n c --node-count 0'],
    ['az extension update -n containerapp', 'az webapp config appsettings set -g g -n app --settings A=1'],
    ['gcloud components update', 'gcloud run services update api --min-instances 0'],
    ['gcloud container clusters get-credentials c', 'gcloud container clusters resize c --num-nodes 0'],
    ['gcloud config set project p', 'gcloud compute instances stop vm1 --zone z'],
    // a hard reset of a VM, as `aws ec2 reboot-instances` (unknownfix-holes.test.ts had it pass: the unknown-command rule's to leave, the family's to ask)
    ['gcloud compute instances describe my-vm', 'gcloud compute instances reset my-vm'],
  ],
  // infra-db.ts REDIS_CLIENTS: the servers that speak redis's protocol ship its client under their own name
  "redis-cli's siblings": [
    ["valkey-cli <<< 'GET x'", 'valkey-cli <<< FLUSHALL'],
    ['echo PING | valkey-cli', 'echo FLUSHALL | valkey-cli'],
    ['keydb-cli ping', 'keydb-cli <<EOF\nFLUSHDB\nEOF'],
    ["valkey-cli --scan --pattern 'x*'", "valkey-cli --scan --pattern 'x*' | xargs valkey-cli DEL"],
  ],
});
