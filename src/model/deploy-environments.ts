/**
 * `gh workflow run` and `github.deployWorkflows`: a workflow whose name or file names a
 * non-production environment only (`deploy-staging.yml`, `preview-deploy`) starts no production
 * deploy, unless its name also holds a production word or the glob that matched it names that
 * environment itself (a user's `*staging*` entry). Words are the name's runs of letters and digits.
 */
export const DEPLOY_ENVIRONMENTS = {
  nonProduction: ['staging', 'stage', 'stg', 'preview', 'dev', 'develop', 'development', 'test', 'testing', 'qa', 'sandbox', 'review', 'demo', 'local', 'ci'],
  production: ['prod', 'production', 'prd', 'live', 'release', 'releases', 'publish'],
} as const;
