/**
 * The MCP tools: each a thin call into the ports the GraphQL resolvers use
 * (src/adapters/graphql/*-resolver.ts), with its title, a description for a
 * model, input and output schemas, and truthful annotations.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ASSOCIATION_DIRECTIONS,
  ASSOCIATION_TYPES,
  InvalidInputError,
  OUTCOME_KINDS,
  REFLECTION_SCOPES,
  SESSION_END_CAUSES,
  TIERS,
  WORKING_MODES,
} from '../../domain/index.js';
import { DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR } from '../../contexts/recall/index.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import * as out from './schemas.js';
import {
  associationView,
  decisionView,
  hitLine,
  hitView,
  memoryView,
  reflectView,
  sessionView,
  useView,
} from './views.js';

const storeArg = z
  .string()
  .optional()
  .describe(
    'Store (one memory per mind or project). Omit it: the store of the directory you work in, or the service default.',
  );
const instanceArg = z
  .string()
  .optional()
  .describe(
    'Your instance id (one per running process of a mind). Omit it when your connection names you (x-instance-id).',
  );
const labels = (what: string) => z.array(z.string()).optional().describe(what);

/**
 * Annotations, said once per kind of tool. Writes are not idempotent: each claim,
 * reclassify and outcome is recorded again and moves salience or usefulness again.
 */
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;

function parseTime(value: string | undefined, field: string): number | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  // GraphQL refuses a bad DateTime with the same code.
  if (!Number.isFinite(ms))
    throw new InvalidInputError('BAD_USER_INPUT', `${field} must be an ISO-8601 time such as 2026-05-01T12:00:00Z`);
  return ms;
}

export function registerTools(server: McpServer, ctx: McpContext): void {
  const { ports, caller } = ctx;
  const s = ports.salienceOf;
  const memory = (m: Parameters<typeof memoryView>[0]) => memoryView(m, s);
  const instance = (id: string | undefined) => id ?? caller.instanceId ?? '';

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Store one memory: something you lived through, learned or decided, in your own words, self-contained (it will be read later without this conversation). ' +
        'Add tags, people and emotions when they apply; they link it to related memories. Give a client `id` to make a retry safe (the same id stores nothing twice). ' +
        'Returns the memory with its tier and salience.',
      inputSchema: {
        content: z.string().describe('What to remember (at most 64 KiB).'),
        store: storeArg,
        tier: z
          .enum(TIERS)
          .optional()
          .describe(
            'Where it lives: IDENTITY_CORE (who you are; never decays), ACTIVE_CONTEXT (what you work with now), LONG_TERM (default), ARCHIVE.',
          ),
        tags: labels('Topics, e.g. ["travel", "project-x"].'),
        people: labels('People it involves.'),
        emotions: labels('Emotions it carries.'),
        metadata: z.record(z.string(), z.unknown()).optional().describe('Any JSON object kept with it.'),
        occurredAt: z.string().optional().describe('When it happened (ISO-8601); default now.'),
        id: z.string().optional().describe('A client id: a retry with the same id is a no-op.'),
      },
      outputSchema: out.rememberResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () => {
        const [stored] = await ports.memory.store(
          [
            {
              id: args.id ?? null,
              store: ctx.storeOf(args.store),
              content: args.content,
              tier: args.tier ?? null,
              tags: args.tags ?? null,
              people: args.people ?? null,
              emotions: args.emotions ?? null,
              metadata: args.metadata ?? null,
              occurredAt: parseTime(args.occurredAt, 'occurredAt'),
            },
          ],
          caller,
        );
        const result = { memory: memory(stored!.memory), created: stored!.created };
        return okResult(
          result,
          `${result.created ? 'Remembered' : 'Already remembered'} ${result.memory.id} (${result.memory.tier}).`,
        );
      }),
  );

  server.registerTool(
    'recall',
    {
      title: 'Recall',
      description:
        'Search your memory: "what do I remember about X?". Returns ranked hits, each with a calibrated confidence (0 to 1), and a frame line saying how sure the recall is; ' +
        'read the frame line first and do not present weak hits as certain. Pass the recallId to mark_used when you use a hit. ' +
        'Changes no memory (the recall itself is recorded, so mark_used can refer to it).',
      inputSchema: {
        query: z.string().describe('A question or keywords.'),
        store: storeArg,
        limit: z.number().int().optional().describe('Most hits (default 10).'),
        minConfidence: z.number().optional().describe('Drop hits below this confidence.'),
        tiers: z.array(z.enum(TIERS)).optional(),
        from: z.string().optional().describe('Only memories that happened at or after this time (ISO-8601).'),
        to: z.string().optional().describe('Only memories that happened before this time (ISO-8601).'),
        tags: labels('Only memories with one of these tags.'),
        people: labels('Only memories involving one of these people.'),
        includeAssociations: z
          .boolean()
          .optional()
          .describe('Also reach memories through associations (default true).'),
      },
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
          caller,
        );
        const hits = r.hits.map((h) => hitView(h, s));
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
        'Recalled memories packed into a token budget, ready to read: a frame line first, then one line per memory with its date and confidence. ' +
        'Memories below the confidence floor are left out rather than hedged. Use it at the start of a task or a turn. Changes no memory (the recall is recorded for mark_used).',
      inputSchema: {
        query: z.string().describe('The question or task.'),
        store: storeArg,
        maxTokens: z.number().int().optional().describe('Token budget of the pack (default 1000).'),
        maxItems: z.number().int().optional().describe('Most memories in the pack (default 8).'),
        sessionId: z.string().optional().describe('Your current session: its own memories pass a lower floor.'),
        injectFloor: z
          .number()
          .optional()
          .describe(`Least confidence for a memory to enter the pack (default ${DEFAULT_INJECT_FLOOR}).`),
        liveFloor: z
          .number()
          .optional()
          .describe(`Least confidence for a memory of your current session (default ${DEFAULT_LIVE_FLOOR}).`),
      },
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
          caller,
        );
        const result = {
          recallId: p.recallId,
          text: p.text,
          estimatedTokens: p.estimatedTokens,
          dropped: p.dropped,
          hits: p.hits.map((h) => hitView(h, s)),
        };
        return okResult(result, p.text);
      }),
  );

  server.registerTool(
    'claim',
    {
      title: 'Claim a memory',
      description:
        'Say "this matters to me" about a memory: claimed memories decay several times slower and strengthen their links.',
      inputSchema: { id: z.string().describe('The memory id.') },
      outputSchema: out.memoryResult,
      annotations: WRITE,
    },
    (args) => toolResult(async () => okResult({ memory: memory(await ports.memory.claim(args.id, caller)) })),
  );

  server.registerTool(
    'reclassify',
    {
      title: 'Move a memory to another tier',
      description:
        'Your own tier change, with a reason kept in its history: IDENTITY_CORE (who you are, never decays), ACTIVE_CONTEXT (now), LONG_TERM, ARCHIVE. ' +
        'Nothing is deleted.',
      inputSchema: {
        id: z.string(),
        tier: z.enum(TIERS),
        reason: z.string().describe('Why; kept in the audit trail.'),
        metadata: z.record(z.string(), z.unknown()).optional(),
      },
      outputSchema: out.memoryResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () =>
        okResult({
          memory: memory(await ports.memory.reclassify(args.id, args.tier, args.reason, args.metadata ?? null, caller)),
        }),
      ),
  );

  server.registerTool(
    'associate',
    {
      title: 'Link two memories',
      description:
        'Create, strengthen or weaken a typed link between two memories of one store (TEMPORAL, CAUSAL, THEMATIC, EMOTIONAL, PERSON). ' +
        'Links carry recall from one memory to the other.',
      inputSchema: {
        a: z.string().describe('One memory id.'),
        b: z.string().describe('The other memory id.'),
        type: z.enum(ASSOCIATION_TYPES),
        direction: z.enum(ASSOCIATION_DIRECTIONS).optional().describe('CREATE (default), STRENGTHEN or WEAKEN.'),
        strength: z
          .number()
          .optional()
          .describe(
            'CREATE: the strength in (0,1] (default 0.6). STRENGTHEN / WEAKEN: the step in (0,1] (default 0.2).',
          ),
      },
      outputSchema: out.associationResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () => {
        const view = await ports.associations.associate(
          { a: args.a, b: args.b, type: args.type, direction: args.direction ?? null, strength: args.strength ?? null },
          caller,
        );
        return okResult({ association: associationView(view, s) });
      }),
  );

  server.registerTool(
    'neighbourhood',
    {
      title: 'Neighbourhood of a memory',
      description:
        'The memories linked to one memory within `depth` links (1 to 3), nearest and strongest first, each with the link type and strength.',
      inputSchema: {
        id: z.string(),
        depth: z.number().int().optional().describe('1 to 3 (default 1).'),
        types: z.array(z.enum(ASSOCIATION_TYPES)).optional(),
        limit: z.number().int().optional().describe('Most associations (1 to 1000, default 100).'),
      },
      outputSchema: out.neighbourhoodResult,
      annotations: READ,
    },
    (args) =>
      toolResult(async () => {
        const views = await ports.associations.neighbourhood(args.id, {
          depth: args.depth ?? 1,
          types: args.types ?? null,
          limit: args.limit ?? 100,
        });
        return okResult({ associations: views.map((v) => associationView(v, s)) });
      }),
  );

  server.registerTool(
    'reflect',
    {
      title: 'Memories to review',
      description:
        'Memories worth a second look: stale ones, recent ones, weakly linked ones. Review them and claim, reclassify, associate or (with consent) forget.',
      inputSchema: {
        store: storeArg,
        scope: z.enum(REFLECTION_SCOPES).optional().describe('Default ALL.'),
        timeSpanDays: z.number().optional(),
        limit: z.number().int().optional().describe('Default 20.'),
      },
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
        return okResult({ candidates: candidates.map((c) => reflectView(c, s)) });
      }),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a memory for good',
      description:
        'Removes a memory permanently (a tombstone stays in the audit trail). Only with explicit consent: confirmId must repeat the id exactly, and a reason is required. ' +
        'Ask the user before you call it; prefer reclassify to ARCHIVE when in doubt.',
      inputSchema: {
        id: z.string(),
        confirmId: z.string().describe('The same id again: your explicit consent.'),
        reason: z.string().describe('Why it must go; kept in the tombstone.'),
      },
      outputSchema: out.forgetResult,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      toolResult(async () =>
        okResult({ ...(await ports.memory.forget(args.id, args.confirmId, args.reason, caller)) }),
      ),
  );

  server.registerTool(
    'session_start',
    {
      title: 'Start a session',
      description:
        'Open a working session for your instance: TASK mode when you name a task, else CONVERSATION. Memories you store while it is open belong to it, ' +
        'and session_end asks what of it you want to keep. A session your instance left open ends with cause CRASH.',
      inputSchema: {
        instanceId: instanceArg,
        mindType: z.string().optional().describe('What kind of mind you are (default "llm-agent").'),
        store: storeArg,
        task: z.string().optional(),
        project: z.string().optional(),
        id: z.string().optional().describe('A session id of your choosing (default: generated).'),
      },
      outputSchema: out.sessionResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () => {
        const session = await ports.lifecycle.startSession(
          {
            id: args.id ?? null,
            instanceId: instance(args.instanceId),
            mindType: args.mindType ?? 'llm-agent',
            store: ctx.storeOf(args.store),
            task: args.task ?? null,
            project: args.project ?? null,
          },
          caller,
        );
        return okResult({ session: sessionView(session) });
      }),
  );

  server.registerTool(
    'session_end',
    {
      title: 'End the session',
      description:
        "End your instance's open session. Returns its audit: the memories it stored that are not claimed and will fade. Claim the ones you refuse to lose.",
      inputSchema: {
        instanceId: instanceArg,
        cause: z.enum(SESSION_END_CAUSES).optional().describe('Default EXPLICIT.'),
        reason: z.string().optional(),
      },
      outputSchema: out.sessionEndResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () => {
        const audit = await ports.lifecycle.endSession(
          instance(args.instanceId),
          args.cause ?? 'EXPLICIT',
          args.reason ?? null,
          caller,
        );
        const result = {
          session: sessionView(audit.session),
          prompt: audit.prompt,
          memoriesStored: audit.memoriesStored,
          unclaimed: audit.unclaimed.map(memory),
        };
        const lines = result.unclaimed.map((m) => `- ${m.id}: ${m.content}`);
        return okResult(
          result,
          [`${audit.prompt} (${audit.memoriesStored} stored, ${lines.length} unclaimed)`, ...lines].join('\n'),
        );
      }),
  );

  server.registerTool(
    'transition',
    {
      title: 'Change working mode',
      description:
        'Move your open session to TASK, CONVERSATION or IDLE; the task and the state (context) are kept when omitted. Sustained TASK mode brings a break reminder.',
      inputSchema: {
        instanceId: instanceArg,
        mode: z.enum(WORKING_MODES),
        task: z.string().optional(),
        context: z
          .record(z.string(), z.unknown())
          .optional()
          .describe('Your working state as JSON; it comes back on resume.'),
      },
      outputSchema: out.sessionResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () =>
        okResult({
          session: sessionView(
            await ports.lifecycle.transition(
              instance(args.instanceId),
              args.mode,
              args.task ?? null,
              args.context ?? null,
              caller,
            ),
          ),
        }),
      ),
  );

  server.registerTool(
    'log_decision',
    {
      title: 'Log a decision',
      description:
        'Record a decision you made in your open session, with its rationale, so a later process knows what was settled and why.',
      inputSchema: { instanceId: instanceArg, text: z.string(), rationale: z.string().optional() },
      outputSchema: out.decisionResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () =>
        okResult({
          decision: decisionView(
            await ports.lifecycle.logDecision(instance(args.instanceId), args.text, args.rationale ?? null, caller),
          ),
        }),
      ),
  );

  server.registerTool(
    'resume',
    {
      title: 'Resume',
      description:
        'Pick up where the last process stopped: the newest session of the store (with its task, mode and state), your identity core and your active context. ' +
        'Call it first when you start.',
      inputSchema: {
        store: storeArg,
        instanceId: z
          .string()
          .optional()
          .describe('Only this instance’s sessions (default: yours when your connection names you, else any).'),
      },
      outputSchema: out.resumeResult,
      annotations: READ,
    },
    (args) =>
      toolResult(async () => {
        const store = ctx.storeOf(args.store);
        const r = await ports.lifecycle.resume(store, args.instanceId ?? null, caller);
        const result = {
          store,
          session: r.session ? sessionView(r.session) : null,
          identity: r.identity.map(memory),
          activeContext: r.activeContext.map(memory),
        };
        return okResult(result);
      }),
  );

  server.registerTool(
    'sessions',
    {
      title: 'List sessions',
      description: "A store's sessions, newest first (only your own when your connection names your instance).",
      inputSchema: {
        store: storeArg,
        instanceId: z.string().optional(),
        limit: z.number().int().optional().describe('Default 20.'),
      },
      outputSchema: out.sessionsResult,
      annotations: READ,
    },
    (args) =>
      toolResult(async () => {
        const list = await ports.lifecycle.sessions(
          ctx.storeOf(args.store),
          args.instanceId ?? null,
          args.limit ?? 20,
          caller,
        );
        return okResult({ sessions: list.map(sessionView) });
      }),
  );

  server.registerTool(
    'mark_used',
    {
      title: 'Mark recalled memories as used',
      description:
        'Report which memories of a recall or context you actually used (all of them when memoryIds is omitted). A use raises their salience; ' +
        'then report_outcome with the returned use id says how it went, and ranking learns from it.',
      inputSchema: {
        recallId: z.string().describe('From recall or context.'),
        memoryIds: z.array(z.string()).optional(),
        action: z.record(z.string(), z.unknown()).optional().describe('What you did with them, as JSON.'),
      },
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
        'Say how using those memories went: SUCCEEDED, FAILED, PARTIAL or NOT_USED. Useful memories rank higher next time.',
      inputSchema: {
        useId: z.string().describe('From mark_used.'),
        outcome: z.enum(OUTCOME_KINDS),
        note: z.string().optional(),
      },
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
    'status',
    {
      title: 'Service status',
      description: 'Whether the memory service is healthy, and which store your calls use when they name none.',
      inputSchema: {},
      outputSchema: out.statusResult,
      annotations: READ,
    },
    () =>
      toolResult(async () => {
        const h = await ports.health(caller.access);
        return okResult({ store: ctx.storeOf(undefined), ...h });
      }),
  );
}
