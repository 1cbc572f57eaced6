import type { RuleType } from './safety-rules.ts';

/** The rule lists whose entries allow something: adding to them loosens the rules. Every other list denies or protects. */
const ALLOWING: ReadonlySet<RuleType> = new Set<RuleType>(['bash_allow']);

/**
 * Whether a rule change lets more through: removing an entry from a list that denies or
 * protects, or adding one to a list that allows. Only a person loosens the rules (the agent and
 * the auditor are bound by them); tightening is anyone's.
 */
export function loosensRules(change: { action?: 'add' | 'remove'; rule_type: RuleType }): boolean {
  return ALLOWING.has(change.rule_type) ? (change.action ?? 'add') === 'add' : change.action === 'remove';
}
