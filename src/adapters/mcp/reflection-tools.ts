/**
 * A reflect session over MCP: `reflect_session` opens one (the candidates with
 * the answers that fit each), `reflect_answer` answers one candidate. Both are
 * thin calls into the ReflectionPort the GraphQL `reflectSession` and
 * `answerReflection` use; every answer is kept as an event on its memory.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ASSOCIATION_TYPES, MERGE_STRATEGIES, REFLECT_ACTION_KINDS, TIERS } from '../../domain/index.js';
import type { ReflectionView } from '../../contexts/cortex/index.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import { memorySchema, reflectCandidateSchema } from './schemas.js';
import { memoryView, reflectView } from './views.js';
import { id, list, oneOf, reflectionArgs, storeArg, toolInput } from './tool-args.js';

const actionSchema = z.object({
  kind: z.enum(REFLECT_ACTION_KINDS),
  description: z.string(),
  tier: z.enum(TIERS).nullable(),
  memoryIds: z.array(z.string()),
});
const candidateWithActions = reflectCandidateSchema.extend({ actions: z.array(actionSchema) });
const reflectionResult = {
  reflectionId: z.string(),
  store: z.string(),
  remaining: z.number().describe('Candidates not answered yet.'),
  nextMemoryId: z.string().nullable().describe('The first candidate without an answer.'),
  candidates: z.array(candidateWithActions),
};
/** An answer: the reflection as it stands, and the memory the answer acted on or made (none once forgotten). */
const answerResult = {
  ...reflectionResult,
  memory: memorySchema
    .nullable()
    .describe('The memory the answer acted on, or the one a CONSOLIDATE made; null after FORGET.'),
};

function reflectionView(view: ReflectionView, ctx: McpContext) {
  return {
    reflectionId: view.id,
    store: view.store,
    remaining: view.remaining,
    nextMemoryId: view.next?.memory.id ?? null,
    candidates: view.candidates.map((c) => ({
      ...reflectView(c, ctx.ports.salienceOf),
      actions: c.actions.map((a) => ({
        kind: a.kind,
        description: a.description,
        tier: a.tier,
        memoryIds: a.memories.map((m) => m.id),
      })),
    })),
  };
}

export function registerReflectionTools(server: McpServer, ctx: McpContext): void {
  const { ports, caller } = ctx;
  server.registerTool(
    'reflect_session',
    {
      title: 'Start a reflect session',
      description:
        'Opens a reflection: the memories worth a second look, each with the answers that fit it (CLAIM, RECLASSIFY ' +
        'with its tier, ASSOCIATE with the weakly tied, CONSOLIDATE with near-duplicates, FORGET with consent, ' +
        'KEEP). Answer each with reflect_answer; nothing changes until you do.',
      inputSchema: toolInput({
        store: storeArg,
        ...reflectionArgs(10),
      }),
      outputSchema: reflectionResult,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      toolResult(async () => {
        const view = await ports.reflection.open(
          {
            store: ctx.storeOf(args.store),
            scope: args.scope ?? null,
            timeSpanDays: args.timeSpanDays ?? null,
            limit: args.limit ?? null,
          },
          caller,
        );
        return okResult(reflectionView(view, ctx));
      }),
  );
  server.registerTool(
    'reflect_answer',
    {
      title: 'Answer one reflect candidate',
      description:
        'Answers one candidate of a reflection with one of the actions offered for it, and why (kept as an event on ' +
        'the memory). RECLASSIFY may name another tier; ASSOCIATE and CONSOLIDATE may name other memories (with); ' +
        'ASSOCIATE may choose the link type (associationType); CONSOLIDATE may choose a strategy (SUMMARIZE with ' +
        'your content); FORGET deletes for good and needs confirmId repeating memoryId: ask the user first.',
      inputSchema: toolInput({
        reflectionId: id('The reflectionId reflect_session returned.'),
        memoryId: id('The candidate memory you answer (its memory.id).'),
        action: oneOf(REFLECT_ACTION_KINDS).describe(
          `One of the actions offered for this candidate: ${REFLECT_ACTION_KINDS.join(', ')}.`,
        ),
        why: z.string().describe('Your reason, in your own words.'),
        tier: oneOf(TIERS)
          .optional()
          .describe('RECLASSIFY only: the tier to move it to (default: the one the action offered).'),
        with: list(z.string().trim())
          .optional()
          .describe('ASSOCIATE and CONSOLIDATE only: the other memory ids (default: the ones the action offered).'),
        // The fields GraphQL's ReflectAnswerInput takes, by the same names: an answer GraphQL can give, MCP can give.
        associationType: oneOf(ASSOCIATION_TYPES)
          .optional()
          .describe(
            `ASSOCIATE only: the type of every link, one of ${ASSOCIATION_TYPES.join(', ')} (default: each offered ` +
              "memory's own).",
          ),
        strategy: oneOf(MERGE_STRATEGIES)
          .optional()
          .describe(
            `CONSOLIDATE only: how to merge, one of ${MERGE_STRATEGIES.join(', ')} (default COMBINE; SUMMARIZE ` +
              'needs content).',
          ),
        content: z
          .string()
          .optional()
          .describe("CONSOLIDATE only: the consolidated memory's text, your summary (needed by SUMMARIZE)."),
        confirmId: id('FORGET only: the memory id again, your explicit consent.').optional(),
      }),
      outputSchema: answerResult,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      toolResult(async () => {
        const answered = await ports.reflection.answer(
          {
            reflectionId: args.reflectionId,
            memoryId: args.memoryId,
            action: args.action,
            why: args.why,
            tier: args.tier ?? null,
            with: args.with ?? null,
            associationType: args.associationType ?? null,
            strategy: args.strategy ?? null,
            content: args.content ?? null,
            confirmId: args.confirmId ?? null,
          },
          caller,
        );
        const memory = answered.memory ? memoryView(answered.memory, ports.salienceOf) : null;
        return okResult({ ...reflectionView(answered.reflection, ctx), memory });
      }),
  );
}
