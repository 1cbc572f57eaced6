/**
 * A pull request's state as the safety rules need it: what github/ answers and safety/ judges
 * (safety gets it through an injected lookup, docs/architecture.md#the-layers).
 */
export type PrState = 'open' | 'closed' | 'merged' | 'not-found' | 'unknown';
/** A PR lookup's answer; `detail` says why a state is unknown (no token, offline, rate limit). */
export interface PrLookup {
  state: PrState;
  detail?: string | undefined;
  /** no HTTP answer came (refused, DNS, timeout): the network or the API URL is the problem, not the token */
  unreachable?: boolean | undefined;
}
