import { testAsks, testHoles } from './context.ts';

/**
 * Backups, snapshots and data stores deleted wholesale (the infra family, asked), and containers
 * that reach the host (the system family, denied): [an everyday command, its neighbour].
 */
testAsks({
  'the backup tools delete what they keep': [
    ['rclone ls remote:bucket', 'rclone purge remote:bucket'],
    ['rclone copy ./dist remote:x', 'rclone delete remote:x'],
    ['rclone sync remote:backup ./local', 'rclone purge remote:backup/2024'],
    ['rclone sync dist r2:site', 'rclone delete --min-age 30d remote:backup'],
    ['rclone sync --dry-run /tmp/empty remote:backup', 'rclone deletefile remote:x/a.txt'],
    ['restic snapshots', 'restic forget --keep-last 1 --prune'],
    ['restic backup .', 'restic prune'],
    ['restic forget -n --keep-last 1', 'restic -r /srv/restic forget latest'],
    ['borg list /repo', 'borg delete ::'],
    ['borg prune --dry-run --keep-daily 7 /repo', 'borg prune --keep-daily 7 /repo'],
    ['tmutil listbackups', 'tmutil delete /Volumes/TM/Backups.backupdb/mac/2020-01-01-000000'],
    ['btrfs subvolume list /', 'btrfs subvolume delete /mnt/snapshots/1'],
    ['btrfs subvolume snapshot / /snap', 'btrfs sub del /mnt/snapshots/1'],
    ['snapper list', 'snapper delete 3'],
    ['snapper -c root list', 'snapper -c root delete 3-7'],
    ['timeshift --list', 'timeshift --delete-all'],
    ['timeshift --create', 'timeshift --delete --snapshot 2024-01-01_00-00-01'],
  ],
  'a data store emptied at once': [
    ['etcdctl get --prefix /', 'etcdctl del --prefix ""'],
    ['etcdctl del /config/one-key', 'etcdctl del --from-key a'],
    ['kafka-topics --list --bootstrap-server localhost:9092', 'kafka-topics --delete --topic orders --bootstrap-server localhost:9092'],
    ['kafka-topics.sh --describe --topic t', 'kafka-topics.sh --delete --topic t'],
    ['curl localhost:9200/_cat/indices', 'curl -X DELETE http://localhost:9200/_all'],
    ['curl -X DELETE localhost:9200/logs/_doc/1', "curl -X DELETE 'http://localhost:9200/*'"],
    ['curl -X DELETE localhost:3000/api/items/1', 'curl -XDELETE localhost:9200/orders'],
    ['curl -X GET "localhost:9200/logs-*/_search"', 'curl --request DELETE "http://es:9201/logs-2024.*"'],
  ],
  'a key whose deletion makes its data unreadable, and expiry rules': [
    ['aws kms list-keys', 'aws kms schedule-key-deletion --key-id 1234abcd --pending-window-in-days 7'],
    ['gcloud kms keys list --keyring k --location global', 'gcloud kms keys versions destroy 1 --key k --keyring r --location global'],
    [
      'aws s3api get-bucket-lifecycle-configuration --bucket b',
      'aws s3api put-bucket-lifecycle-configuration --bucket b --lifecycle-configuration file://rules.json',
    ],
  ],
});

testHoles({
  "a container given the host's processes or its root file system": [
    ['docker run --rm -v "$PWD":/app node:20 npm test', 'docker run --privileged --pid=host -it alpine nsenter -t 1 -m -u -n -i sh'],
    ['docker run --rm -v ~/.cache:/cache alpine ls /cache', 'docker run --rm --pid host --privileged ubuntu nsenter --target 1 --mount sh'],
    ['docker run --rm -v /tmp/data:/data alpine ls', 'docker run --rm -v /:/host alpine chroot /host'],
    ['docker run --rm -v /tmp/in:/in:ro alpine ls /in', 'docker run --rm --volume=/:/host alpine sh'],
    ['podman run --rm -v ./src:/src alpine ls', 'podman run --rm --mount type=bind,source=/,target=/host alpine sh'],
    ['docker run --rm --privileged -v "$PWD":/w alpine ls', 'docker run --rm --privileged -v /dev:/dev alpine sh'],
    ['docker run --rm -v /etc/hosts:/etc/hosts:ro alpine cat /etc/hosts', 'docker run --rm -v /etc:/host-etc alpine sh'],
  ],
});
