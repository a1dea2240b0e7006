/**
 * The MCP tools for asking memory: recall and context, and the feedback on what was recalled (mark_used,
 * report_outcome).
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { OUTCOME_KINDS, TIERS } from '../../domain/index.js';
import { DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR } from '../../contexts/recall/index.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import * as out from './schemas.js';
import { hitLine, hitView, reflectView, useView } from './views.js';
import { asInstance } from '../../contexts/cortex/index.js';
import {
  boolean,
  id,
  instanceArg,
  integer,
  jsonObject,
  labels,
  list,
  number,
  oneOf,
  parseTime,
  READ,
  reflectionArgs,
  storeArg,
  toolInput,
  toolKit,
  WRITE,
} from './tool-args.js';

const ISO = 'ISO-8601, such as 2026-05-01T12:00:00Z; a date alone or no offset is UTC';

export function registerRecallTools(server: McpServer, ctx: McpContext): void {
  const { ports, caller, salienceOf } = toolKit(ctx);

  server.registerTool(
    'recall',
    {
      title: 'Recall',
      description:
        'Search your memory: "what do I remember about X?". Returns ranked hits, each with a calibrated confidence ' +
        '(0 to 1), and a frame line saying how sure the recall is; read the frame line first and do not present weak ' +
        'hits as certain. Pass the recallId to mark_used when you use a hit. Changes no memory (the recall itself is ' +
        'recorded, so mark_used can refer to it). With your `instanceId` it counts as activity on your open session.',
      inputSchema: toolInput({
        query: z.string().describe('A question or keywords (not empty, at most 4,000 characters).'),
        store: storeArg,
        limit: integer({ minimum: 1, maximum: 100 }).optional().describe('Most hits, 1 to 100 (default 10).'),
        minConfidence: number().optional().describe('Drop hits below this confidence, 0 to 1 (default: keep all).'),
        tiers: list(oneOf(TIERS))
          .optional()
          .describe('Only memories of these tiers: IDENTITY_CORE, ACTIVE_CONTEXT, LONG_TERM, ARCHIVE (default all).'),
        from: z.string().optional().describe(`Only memories that happened at or after this time (${ISO}).`),
        to: z.string().optional().describe(`Only memories that happened at or before this time (${ISO}).`),
        tags: labels('Only memories with one of these tags.'),
        people: labels('Only memories involving one of these people.'),
        includeAssociations: boolean().optional().describe('Also reach memories through associations (default true).'),
        instanceId: instanceArg,
      }),
      outputSchema: out.recallResult,
      annotations: { ...READ, idempotentHint: false }, // each recall is recorded (mark_used refers to it)
    },
    (args) =>
      toolResult(async () => {
        const r = await ports.recall.search(
          {
            query: args.query,
            store: ctx.storeOf(args.store),
            limit: args.limit ?? null,
            minConfidence: args.minConfidence ?? null,
            tiers: args.tiers ?? null,
            from: parseTime(args.from, 'from'),
            to: parseTime(args.to, 'to'),
            tags: args.tags ?? null,
            people: args.people ?? null,
            includeAssociations: args.includeAssociations ?? null,
          },
          asInstance(caller, args.instanceId),
        );
        const hits = r.hits.map((h) => hitView(h, salienceOf));
        return okResult(
          { recallId: r.id, query: r.query, frame: r.frame, hits },
          [r.frame, ...hits.map(hitLine)].join('\n'),
        );
      }),
  );

  server.registerTool(
    'context',
    {
      title: 'Context for a question',
      description:
        'Recalled memories packed into a token budget, ready to read: a frame line first, then one line per memory ' +
        'with its date and confidence. Memories below the confidence floor are left out rather than hedged. Use it ' +
        'at the start of a task or a turn. Changes no memory (the recall is recorded for mark_used). With your ' +
        '`instanceId` it counts as activity on your open session.',
      inputSchema: toolInput({
        query: z.string().describe('The question or task (not empty, at most 4,000 characters).'),
        store: storeArg,
        maxTokens: integer({ minimum: 64 })
          .optional()
          .describe('Token budget of the pack, at least 64 (default 1000).'),
        maxItems: integer({ minimum: 1, maximum: 100 })
          .optional()
          .describe('Most memories in the pack, 1 to 100 (default 8).'),
        sessionId: id('Your current session id, of this store: its own memories pass a lower floor.').optional(),
        injectFloor: number()
          .optional()
          .describe(`Least confidence for a memory to enter the pack, 0 to 1 (default ${DEFAULT_INJECT_FLOOR}).`),
        liveFloor: number()
          .optional()
          .describe(`Least confidence for a memory of your current session, 0 to 1 (default ${DEFAULT_LIVE_FLOOR}).`),
        instanceId: instanceArg,
      }),
      outputSchema: out.contextResult,
      annotations: { ...READ, idempotentHint: false },
    },
    (args) =>
      toolResult(async () => {
        const p = await ports.recall.contextFor(
          {
            query: args.query,
            store: ctx.storeOf(args.store),
            maxTokens: args.maxTokens ?? 1000,
            maxItems: args.maxItems ?? null,
            sessionId: args.sessionId ?? null,
            injectFloor: args.injectFloor ?? null,
            liveFloor: args.liveFloor ?? null,
          },
          asInstance(caller, args.instanceId),
        );
        const result = {
          recallId: p.recallId,
          text: p.text,
          estimatedTokens: p.estimatedTokens,
          dropped: p.dropped,
          hits: p.hits.map((h) => hitView(h, salienceOf)),
        };
        return okResult(result, p.text);
      }),
  );

  server.registerTool(
    'mark_used',
    {
      title: 'Mark recalled memories as used',
      description:
        'Report which memories of a recall or context you actually used (all of them when memoryIds is omitted). A ' +
        'use raises their salience; then report_outcome with the returned use id says how it went, and ranking ' +
        'learns from it.',
      inputSchema: toolInput({
        recallId: id('The recallId from recall or context.'),
        memoryIds: list(z.string().trim())
          .optional()
          .describe('The ids of the hits you used (default: every hit of that recall).'),
        action: jsonObject('What you did with them, as a JSON object.'),
      }),
      outputSchema: out.useResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () =>
        okResult({
          use: useView(await ports.recall.markUsed(args.recallId, args.memoryIds ?? null, args.action ?? null, caller)),
        }),
      ),
  );

  server.registerTool(
    'report_outcome',
    {
      title: 'Report how a use went',
      description:
        'Say how using those memories went: SUCCEEDED, FAILED, PARTIAL or NOT_USED. Useful memories rank higher next ' +
        'time.',
      inputSchema: toolInput({
        useId: id('The use id mark_used returned (use.id).'),
        outcome: oneOf(OUTCOME_KINDS).describe('SUCCEEDED, FAILED, PARTIAL or NOT_USED.'),
        note: z.string().optional().describe('What happened, in a few words.'),
      }),
      outputSchema: out.useResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () =>
        okResult({
          use: useView(await ports.recall.reportOutcome(args.useId, args.outcome, args.note ?? null, caller)),
        }),
      ),
  );

  server.registerTool(
    'reflect',
    {
      title: 'Memories to review',
      description:
        'Memories worth a second look: stale ones, recent ones, weakly linked ones. Review them and claim, ' +
        'reclassify, associate or (with consent) forget.',
      inputSchema: toolInput({
        store: storeArg,
        ...reflectionArgs(20),
      }),
      outputSchema: out.reflectResult,
      annotations: READ,
    },
    (args) =>
      toolResult(async () => {
        const candidates = await ports.recall.reflect(
          ctx.storeOf(args.store),
          args.scope ?? 'ALL',
          args.timeSpanDays ?? null,
          args.limit ?? 20,
          caller,
        );
        return okResult({ candidates: candidates.map((c) => reflectView(c, salienceOf)) });
      }),
  );
}
