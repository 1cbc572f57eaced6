/**
 * The deploy, hosting and cloud CLIs whose every object is live infrastructure or an account's
 * data — an app, a site, a project, a server, a dataset, a product — each with its destroying
 * verbs (docs/safety.md, "How an unknown command is judged"). For these the infra family's
 * unknown-command rule asks at such a verb without a target word (`vercel remove acme`, `bq rm -d
 * ds`, `stripe products delete prod_1`, `railway down`): the name it is handed is the resource.
 * A verb written with `:` or `-` is a whole subcommand word (`hosting:disable`: firebase's other
 * deletes, `firestore:delete` of one document, are its own check's); a plain one is also a part of
 * one (`sites:delete`). The clouds' own CLIs (aws, gcloud, az), supabase and the IaC tools have
 * checks of their own (src/safety/families/infra*.ts). Plain data.
 */
export const INFRA_CLI_VERBS: Readonly<Record<string, readonly string[]>> = {
  // hosting and deploy platforms: apps, sites, projects, deployments, their domains and secrets
  vercel: ['remove', 'rm', 'del'],
  netlify: ['delete', 'unset', 'deleteSite', 'deleteDeploy'],
  railway: ['down', 'delete', 'remove'],
  fly: ['destroy', 'delete', 'remove', 'unset'],
  flyctl: ['destroy', 'delete', 'remove', 'unset'],
  heroku: ['destroy', 'reset', 'unset'],
  render: ['delete'],
  wrangler: ['delete'],
  firebase: [
    'hosting:disable',
    'functions:delete',
    'hosting:sites:delete',
    'hosting:channel:delete',
    'database:remove',
    'projects:delete',
    'database:set',
    'auth:import',
    'ext:uninstall',
    'apphosting:backends:delete',
    'firestore:databases:delete',
    'functions:secrets:destroy',
    'functions:config:unset',
  ],
  kamal: ['remove'],
  dokku: ['destroy'],
  eb: ['terminate'],
  copilot: ['delete'],
  cf: ['delete'],
  amplify: ['delete'],
  koyeb: ['delete'],
  deployctl: ['delete'],
  upsun: ['delete'],
  // the Azure Developer CLI's environment (`azd down`: every resource it provisioned), SST's stages
  azd: ['down'],
  sst: ['remove'],
  // cloud providers' CLIs: servers, volumes, databases, clusters
  doctl: ['delete'],
  hcloud: ['delete'],
  scw: ['delete'],
  'linode-cli': ['delete', 'rm'],
  'vultr-cli': ['delete'],
  civo: ['remove', 'delete', 'rm'],
  exo: ['delete'],
  ibmcloud: ['delete', 'rm'],
  oci: ['delete', 'terminate'],
  aliyun: ['delete'],
  // OpenStack's object store: a container and its objects (`swift delete --all`: every container)
  swift: ['delete'],
  // hosted databases and data: datasets, tables, branches, databases
  bq: ['rm'],
  databricks: ['rm', 'delete', 'permanent-delete'],
  neonctl: ['delete'],
  pscale: ['delete'],
  turso: ['destroy'],
  // Bigtable's tables, column families, rows and instances
  cbt: ['deletetable', 'deletefamily', 'deleteallrows', 'deleteinstance', 'deletecluster', 'deleteappprofile'],
  // a container registry's repositories and tags (Docker Hub's hub-tool)
  'hub-tool': ['rm'],
  // backup tools whose verbs delete what they keep (the others' checks: src/safety/families/infra-backups.ts)
  duplicacy: ['prune'],
  bupstash: ['rm', 'remove'],
  // an account's live data: a payment platform's products, prices, customers
  stripe: ['delete'],
  // virtual machines and local clusters: a machine's disks go with it (`virsh undefine --remove-all-storage`)
  virsh: ['undefine', 'vol-delete', 'vol-wipe', 'pool-delete', 'pool-undefine', 'snapshot-delete'],
  multipass: ['delete', 'purge'],
  lxc: ['delete'],
  incus: ['delete'],
  vboxmanage: ['unregistervm'],
  VBoxManage: ['unregistervm'],
  prlctl: ['delete'],
  limactl: ['delete', 'rm'],
  colima: ['delete'],
  utmctl: ['delete'],
  orbctl: ['delete'],
  tart: ['delete'],
  vmrun: ['deleteVM', 'deleteSnapshot'],
  // Proxmox's API shell: a VM's or container's path deleted is the machine and its disks
  pvesh: ['delete'],
  // cluster services: jobs, keys, secrets engines, queues, streams and topics with what they hold
  nomad: ['stop', 'purge', 'gc'],
  consul: ['delete', 'restore', 'deregister'],
  vault: ['disable', 'delete', 'revoke', 'restore'],
  // OpenBao, Vault's fork: the same CLI
  bao: ['disable', 'delete', 'revoke', 'restore'],
  // secrets managers and CI systems: secrets, configs, contexts the deploys and workflows read
  doppler: ['delete'],
  infisical: ['delete'],
  circleci: ['delete'],
  'zkCli.sh': ['delete', 'deleteall', 'rmr'],
  zkCli: ['delete', 'deleteall', 'rmr'],
  'zookeeper-shell': ['delete', 'deleteall', 'rmr'],
  rabbitmqctl: ['delete_vhost', 'delete_user', 'delete_queue', 'purge_queue', 'reset', 'force_reset'],
  rabbitmqadmin: ['delete', 'purge'],
  nats: ['rm', 'del', 'delete', 'purge'],
  'pulsar-admin': ['delete'],
  // clusters and what runs on them: kapp's apps, Argo CD's apps, app sets, clusters and projects,
  // Cluster API's providers and clusters, a Talos node or a MicroK8s cluster reset to nothing
  kapp: ['delete'],
  argocd: ['delete', 'rm'],
  clusterctl: ['delete'],
  talosctl: ['reset'],
  microk8s: ['reset'],
  nodetool: ['clearsnapshot', 'decommission', 'removenode'],
  // the eighteenth red-team's: virtual clusters, bare-metal servers, Ceph's pools and RADOS objects,
  // Solr's collections (`bin/solr delete -c`), what werf, DevSpace and Tanka deployed to a
  // cluster, a Chalice app's stage
  vcluster: ['delete', 'rm'],
  metal: ['delete'],
  ceph: ['delete', 'rm', 'purge'],
  rados: ['purge', 'rmpool', 'rm', 'cleanup'],
  solr: ['delete'],
  werf: ['dismiss'],
  devspace: ['purge'],
  tk: ['delete'],
  chalice: ['delete'],
};
