/**
 * Programs whose own word for publishing is not one of the publish family's verbs (`publish`,
 * `release`, `deploy`...), each with those words: read as a publish verb of that program only
 * (safety/families/unknown.ts, docs/safety.md "How an unknown command is judged"). Plain data.
 */
export const PUBLISH_CLI_VERBS: Readonly<Record<string, readonly string[]>> = {
  // rebar3_hex's `rebar3 hex cut`: the version bumped, committed, tagged, pushed and the package published to Hex
  rebar3: ['cut'],
};
