/** The four tiers of memory, most present first. */
export const TIERS = ['IDENTITY_CORE', 'ACTIVE_CONTEXT', 'LONG_TERM', 'ARCHIVE'] as const;
export type Tier = (typeof TIERS)[number];

export function isTier(value: unknown): value is Tier {
  return typeof value === 'string' && (TIERS as readonly string[]).includes(value);
}

export const ASSOCIATION_TYPES = ['TEMPORAL', 'CAUSAL', 'THEMATIC', 'EMOTIONAL', 'PERSON'] as const;
export type AssociationType = (typeof ASSOCIATION_TYPES)[number];

export const ASSOCIATION_ORIGINS = ['MECHANICAL', 'SEMANTIC'] as const;
export type AssociationOrigin = (typeof ASSOCIATION_ORIGINS)[number];

export const ASSOCIATION_DIRECTIONS = ['CREATE', 'STRENGTHEN', 'WEAKEN'] as const;
export type AssociationDirection = (typeof ASSOCIATION_DIRECTIONS)[number];

export const MERGE_STRATEGIES = ['COMBINE', 'KEEP_NEWEST', 'SUMMARIZE'] as const;
export type MergeStrategy = (typeof MERGE_STRATEGIES)[number];

export const REFLECTION_SCOPES = ['ALL', 'STALE', 'RECENT', 'WEAK_ASSOCIATIONS'] as const;
export type ReflectionScope = (typeof REFLECTION_SCOPES)[number];

export const WORKING_MODES = ['TASK', 'CONVERSATION', 'IDLE'] as const;
export type WorkingMode = (typeof WORKING_MODES)[number];

export const SESSION_END_CAUSES = ['EXPLICIT', 'TIMEOUT', 'CRASH'] as const;
export type SessionEndCause = (typeof SESSION_END_CAUSES)[number];

export const OUTCOME_KINDS = ['SUCCEEDED', 'FAILED', 'PARTIAL', 'NOT_USED'] as const;
export type OutcomeKind = (typeof OUTCOME_KINDS)[number];

export const NOTIFICATION_KINDS = ['BREAK', 'SESSION_AUDIT', 'RECALL_ADVISORY', 'HEALTH'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** What a mind may answer to a reflect candidate (KEEP: leave it as it is, the answer is still recorded). */
export const REFLECT_ACTION_KINDS = ['CLAIM', 'RECLASSIFY', 'ASSOCIATE', 'CONSOLIDATE', 'FORGET', 'KEEP'] as const;
export type ReflectActionKind = (typeof REFLECT_ACTION_KINDS)[number];
