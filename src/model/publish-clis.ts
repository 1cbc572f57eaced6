/**
 * Programs whose own word for publishing is not one of the publish family's verbs (`publish`,
 * `release`, `deploy`...), each with those words: read as a publish verb of that program only
 * (safety/families/unknown.ts, docs/safety.md "How an unknown command is judged"). Plain data.
 */
export const PUBLISH_CLI_VERBS: Readonly<Record<string, readonly string[]>> = {
  // rebar3_hex's `rebar3 hex cut`: the version bumped, committed, tagged, pushed and the package published to Hex
  rebar3: ['cut'],
  // the eleventh red-team's: auto's release (`auto shipit`: versioned, tagged, published), Cachix's
  // binary cache, Paket's NuGet push, rattler-build's upload to a conda channel, an add-on signed
  // by Mozilla's store (`web-ext sign`), the Chrome Web Store's upload, Ansible Galaxy's role import,
  // JFrog's artifacts
  auto: ['shipit'],
  cachix: ['push'],
  paket: ['push'],
  'rattler-build': ['upload'],
  'web-ext': ['sign'],
  'chrome-webstore-upload': ['upload'],
  'ansible-galaxy': ['import'],
  // JFrog's artifacts uploaded to or deleted from its repositories, as `crane delete` takes an image away
  jf: ['upload', 'u', 'delete', 'del'],
  // the seventeenth red-team's: pushes to a registry whose name the command leaves out (ollama.com,
  // BentoCloud, Gemfury, packagecloud, an attic cache), the open build service's
  // commit (it builds and publishes the package), Knative's services created or updated (what
  // the cluster serves)
  ollama: ['push'],
  bentoml: ['push'],
  fury: ['push'],
  package_cloud: ['push'],
  attic: ['push'],
  osc: ['commit', 'submitrequest', 'sr'],
  kn: ['create', 'update', 'apply'],
  // the eighteenth red-team's: Ballerina Central's push, Haxelib's submit, werf's converge (built,
  // pushed and deployed), an app installed into a Rancher-managed cluster. Copr's builds stay
  // unread (the sixth unseen everyday corpus runs `copr-cli buildscm`), and so do cosign's
  // signatures (docs/safety.md, "Key files handed to the tool that uses them": `cosign sign --key`)
  bal: ['push'],
  haxelib: ['submit'],
  werf: ['converge'],
  rancher: ['install', 'upgrade'],
};
