import { type KindFacts, kindTables } from './kind-facts.ts';
import { backlogKind } from './kinds/backlog.ts';
import { decisionKind } from './kinds/decision.ts';
import { handoffKind } from './kinds/handoff.ts';
import { memoryKind } from './kinds/memory.ts';
import { oracleKind } from './kinds/oracle.ts';
import { planKind } from './kinds/plan.ts';
import { questionKind } from './kinds/question.ts';
import { sessionKind } from './kinds/session.ts';

// No zod here (see kind-facts.ts): light enough for the hooks and the query at the tip.

/**
 * Every kind of item, by name: the one list of kinds. A new kind is its declaration
 * (`kinds/<kind>.ts`) and its line here; the compiler then asks for its file format in `SPECS`
 * (`paths.ts`) and in every table typed `Record<KindName, …>`.
 */
export const KINDS = {
  decision: decisionKind,
  memory: memoryKind,
  backlog: backlogKind,
  question: questionKind,
  plan: planKind,
  handoff: handoffKind,
  session: sessionKind,
  oracle: oracleKind,
} as const satisfies { [K in string]: KindFacts<K> };

export type KindName = keyof typeof KINDS;

/** The names of the kinds whose declaration has `P` set to true (or present). */
type KindsWith<P extends string> = { [K in KindName]: (typeof KINDS)[K] extends Record<P, infer V> ? (V extends false ? never : K) : never }[KindName];

/** Kinds with a display ID, and their letters. */
export type IdKind = KindsWith<'idPrefix'>;
export type IdPrefix = (typeof KINDS)[IdKind]['idPrefix'];
/** Kinds search looks through. */
export type SearchKind = KindsWith<'searchable'>;
/** Kinds whose items carry anchors in the code. */
export type AnchoredKind = KindsWith<'anchored'>;
/** The `axme ui` pages that list kinds. */
export type KindPage = (typeof KINDS)[KindName]['page'];
/** Kinds with live statuses. */
export type LiveKind = KindsWith<'live'>;

/** Every table of kinds, derived from `KINDS`. */
export const KIND_TABLES = kindTables(Object.values(KINDS) as Array<KindFacts<KindName>>);

/** Every kind in listing order (a diff, a report). */
export const KIND_ORDER: readonly KindName[] = KIND_TABLES.names;
/** The kinds whose items carry a display ID (D-001). */
export const ID_KINDS = KIND_TABLES.idKinds as readonly IdKind[];
/** The kind of a display-ID letter (`D` → decision), or undefined. */
export function kindOfPrefix(prefix: string): IdKind | undefined {
  return KIND_TABLES.kindOfPrefix.get(prefix) as IdKind | undefined;
}

/** The declaration of a kind. */
export function kindFacts(kind: KindName): KindFacts<KindName> {
  return KINDS[kind];
}
