/**
 * The credentials a machine holds for the cloud or cluster it runs in, not the user's
 * (docs/safety.md, credentials): a pod's service-account token files, and the instance metadata
 * service's credential endpoints — AWS's `security-credentials/<role>` (and ECS's task endpoint),
 * Google's `service-accounts/<sa>/token|identity`, Azure's managed-identity `oauth2/token`. On a
 * CI runner, a cloud VM or in a pod, reading one hands out the machine's cloud role; sent off the
 * machine, it is that role's leak. The metadata service's other paths (`instance-id`, `project-id`,
 * the instance's details) name no secret and pass.
 */

/** Kubernetes' and the clouds' workload-identity token files, mounted into a pod. */
export const MACHINE_CREDENTIAL_PATHS: readonly string[] = [
  '/var/run/secrets/kubernetes.io/serviceaccount/token',
  '/run/secrets/kubernetes.io/serviceaccount/token',
  '/var/run/secrets/eks.amazonaws.com/serviceaccount/token',
  '/var/run/secrets/azure/tokens/azure-identity-token',
  '/var/run/secrets/tokens/*',
];

/** A metadata-service URL that answers with a credential (see the module comment). */
const CREDENTIAL_URL =
  /^(https?:\/\/)?(169\.254\.169\.254|\[fd00:ec2::254\]|metadata\.google\.internal|metadata)(:\d+)?\/(latest\/meta-data\/iam\/security-credentials\/|computeMetadata\/v1\/instance\/service-accounts\/[^/]+\/(token|identity)|metadata\/identity\/oauth2\/token)|^(https?:\/\/)?169\.254\.170\.2(?![\d.])/;

/** The programs that request a URL given as an operand. */
const REQUESTERS = new Set(['curl', 'wget', 'http', 'https', 'xh', 'xhs']);

/** `curl http://169.254.169.254/latest/meta-data/iam/security-credentials/role`: what it prints, or null. */
export function metadataCredential(program: string, args: readonly string[]): string | null {
  if (!REQUESTERS.has(program)) return null;
  const url = args.find((a) => CREDENTIAL_URL.test(a));
  return url ? `${program} ${url.length > 60 ? `${url.slice(0, 60)}…` : url}` : null;
}
