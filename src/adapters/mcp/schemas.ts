/**
 * The shapes the MCP tools return (`outputSchema`, checked against every
 * `structuredContent`). Times are ISO-8601 strings; every memory carries its
 * current salience and every hit its calibrated confidence.
 */
import { z } from 'zod';
import {
  ASSOCIATION_ORIGINS,
  ASSOCIATION_TYPES,
  OUTCOME_KINDS,
  SESSION_END_CAUSES,
  TIERS,
  WORKING_MODES,
} from '../../domain/index.js';

const time = z.string().describe('ISO-8601 time');

export const memorySchema = z.object({
  id: z.string(),
  store: z.string(),
  content: z.string(),
  tier: z.enum(TIERS),
  claimed: z.boolean(),
  tags: z.array(z.string()),
  people: z.array(z.string()),
  emotions: z.array(z.string()),
  metadata: z.unknown().optional(),
  occurredAt: time,
  createdAt: time,
  lastAccessedAt: time.nullable(),
  accessCount: z.number(),
  salience: z.number().describe('current score in [0,1], decayed to now'),
  usefulness: z.number().describe('in [-1,1], from reported outcomes'),
  sessionId: z.string().nullable(),
});

export const hitSchema = z.object({
  memory: memorySchema,
  confidence: z.number().describe('calibrated probability in [0,1] that this is what was asked for'),
  score: z
    .number()
    .describe('orders hits of equal confidence only: salience, usefulness and tier (hits are sorted by confidence)'),
  relevance: z.number().describe("confidence from the memory's own match alone, without association, in [0,1]"),
  coverage: z.number().describe("share of the question's content words the memory holds, in [0,1]"),
  similarity: z.number().nullable().describe('cosine similarity to the question (null without vectors)'),
  activation: z.number().describe("share of a seed's weight that reached it over associations, in [0,1]"),
  association: z
    .number()
    .describe("activation times the seed's own confidence: what association contributes, in [0,1]"),
  path: z
    .array(z.enum(ASSOCIATION_TYPES))
    .describe('association types followed to reach it (empty for a direct match)'),
  represents: z
    .array(z.string())
    .describe('memories this hit stands for, left out of the list (a consolidation and its originals)'),
});

export const associationSchema = z.object({
  seenFrom: z.string().describe('the memory id it is seen from'),
  type: z.enum(ASSOCIATION_TYPES),
  origin: z.enum(ASSOCIATION_ORIGINS),
  strength: z.number().describe('in (0,1]'),
  hop: z.number().describe('1 for a direct link; in a neighbourhood, the distance of the nearer end plus one'),
  createdAt: time,
  updatedAt: time,
  other: memorySchema.describe('the memory at the other end'),
});

export const sessionSchema = z.object({
  id: z.string(),
  store: z.string(),
  instanceId: z.string(),
  mindType: z.string(),
  mode: z.enum(WORKING_MODES),
  modeSince: time,
  task: z.string().nullable(),
  project: z.string().nullable(),
  state: z.unknown().optional(),
  startedAt: time,
  lastActiveAt: time,
  endedAt: time.nullable(),
  endCause: z.enum(SESSION_END_CAUSES).nullable(),
  endReason: z.string().nullable(),
  decisionsMade: z.number().describe('how many decisions the session holds in all'),
});

export const decisionSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  text: z.string(),
  rationale: z.string().nullable(),
  at: time,
});

export const useSchema = z.object({
  id: z.string().describe('the use id: pass it to report_outcome'),
  recallId: z.string(),
  memoryIds: z.array(z.string()),
  outcome: z.enum(OUTCOME_KINDS).nullable(),
  at: time,
});

export const reflectCandidateSchema = z.object({
  memory: memorySchema,
  reason: z.string(),
  staleDays: z.number().nullable(),
  associationCount: z.number(),
});

// ── tool results (each an object: structuredContent must be one) ──────────

export const rememberResult = {
  memory: memorySchema,
  created: z.boolean().describe('false when the client id existed: the retry changed nothing'),
};
export const recallResult = {
  recallId: z.string().describe('pass it to mark_used'),
  query: z.string(),
  frame: z.string().describe('one line saying how sure the recall is; show it before the hits'),
  hits: z.array(hitSchema),
};
export const contextResult = {
  recallId: z.string(),
  text: z.string().describe('the pack: frame line first, then one line per memory with its date and confidence'),
  estimatedTokens: z.number(),
  dropped: z.number().describe('hits left out (below the floor or over the budget)'),
  hits: z.array(hitSchema),
};
export const memoryResult = { memory: memorySchema };
export const associationResult = { association: associationSchema };
export const neighbourhoodResult = { associations: z.array(associationSchema) };
export const reflectResult = { candidates: z.array(reflectCandidateSchema) };
export const forgetResult = { id: z.string(), forgotten: z.boolean(), consolidatedInto: z.array(z.string()) };
export const sessionResult = { session: sessionSchema };
export const sessionsResult = { sessions: z.array(sessionSchema) };
export const sessionEndResult = {
  session: sessionSchema,
  prompt: z.string(),
  memoriesStored: z.number(),
  unclaimed: z.array(memorySchema).describe('what will fade unless claimed'),
};
export const decisionResult = { decision: decisionSchema };
export const resumeResult = {
  store: z.string(),
  session: sessionSchema.nullable().describe('the newest session of the store (of the instance, when it names itself)'),
  identity: z.array(memorySchema),
  activeContext: z.array(memorySchema),
};
export const useResult = { use: useSchema };
export const statusResult = {
  store: z.string().describe('the store calls without a store argument use'),
  version: z.string(),
  neo4j: z.boolean(),
  redis: z.boolean(),
  accepting: z.boolean(),
  memories: z.number(),
  embeddings: z.string(),
  degraded: z.array(z.string()).describe('what works less well right now, one line each; empty when everything is up'),
  progress: z
    .array(z.looseObject({}))
    .describe(
      'long operations of the service (import, export, backfill, sweeps, consolidation, index builds) ' +
        'with their share done',
    ),
};
