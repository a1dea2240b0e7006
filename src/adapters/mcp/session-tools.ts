/** The MCP tools for sessions of a mind: start, end, transition, decisions, resume and the list of sessions. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SESSION_END_CAUSES, WORKING_MODES } from '../../domain/index.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import * as out from './schemas.js';
import { decisionView, sessionView } from './views.js';
import { instanceArg, READ, storeArg, toolKit, WRITE } from './tool-args.js';

export function registerSessionTools(server: McpServer, ctx: McpContext): void {
  const { ports, caller, memory, instance } = toolKit(ctx);

  server.registerTool(
    'session_start',
    {
      title: 'Start a session',
      description:
        'Open a working session for your instance: TASK mode when you name a task, else CONVERSATION. Memories you ' +
        'store while it is open belong to it, and session_end asks what of it you want to keep. A session your ' +
        'instance left open ends with cause CRASH. Unless your connection names you (x-instance-id), pass the same ' +
        '`instanceId` to remember, recall and context: without it they are not yours and the session stays empty.',
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
        const result = { session: sessionView(session) };
        // The connection does not name the instance: only the argument ties later calls to this session.
        const hint = caller.instanceId
          ? ''
          : `\nPass instanceId "${session.instanceId}" to remember, recall and context so they count for this session.`;
        return okResult(result, `${JSON.stringify(result)}${hint}`);
      }),
  );

  server.registerTool(
    'session_end',
    {
      title: 'End the session',
      description:
        "End your instance's open session. Returns its audit: the memories it stored that are not claimed and will " +
        'fade. Claim the ones you refuse to lose.',
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
        'Move your open session to TASK, CONVERSATION or IDLE; the task and the state (context) are kept when ' +
        'omitted. Sustained TASK mode brings a break reminder.',
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
        'Record a decision you made in your open session, with its rationale, so a later process knows what was ' +
        'settled and why.',
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
        'Pick up where the last process stopped: the newest session of the store (with its task, mode and state), ' +
        'your identity core and your active context. Call it first when you start.',
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
}
