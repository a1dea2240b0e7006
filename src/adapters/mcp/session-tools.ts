/** The MCP tools for sessions of a mind: start, end, transition, decisions, resume and the list of sessions. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { DEFAULT_SESSIONS_LIMIT, SESSION_END_CAUSES, WORKING_MODES } from '../../domain/index.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import * as out from './schemas.js';
import { decisionView, sessionView } from './views.js';
import { instanceArg, integer, jsonObject, oneOf, READ, storeArg, toolInput, toolKit, WRITE } from './tool-args.js';

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
      inputSchema: toolInput({
        instanceId: instanceArg,
        mindType: z.string().optional().describe('What kind of mind you are (default "llm-agent").'),
        store: storeArg,
        task: z
          .string()
          .optional()
          .describe('What you are working on, in a line (at most 1,000 characters); opens the session in TASK mode.'),
        project: z.string().optional().describe('The project the work belongs to.'),
        id: z.string().optional().describe('A session id of your choosing (default: generated).'),
      }),
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
      inputSchema: toolInput({
        instanceId: instanceArg,
        cause: oneOf(SESSION_END_CAUSES)
          .optional()
          .describe(`Why it ends: ${SESSION_END_CAUSES.join(', ')} (default EXPLICIT).`),
        reason: z.string().optional().describe('Why it ends, in your words.'),
      }),
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
      inputSchema: toolInput({
        instanceId: instanceArg,
        mode: oneOf(WORKING_MODES).describe('TASK, CONVERSATION or IDLE.'),
        task: z.string().optional().describe('The task you now work on (default: the one you had).'),
        context: jsonObject('Your working state as a JSON object (at most 64 KiB); it comes back on resume.'),
      }),
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
      inputSchema: toolInput({
        instanceId: instanceArg,
        text: z.string().describe('The decision, in a sentence (at most 4,000 characters).'),
        rationale: z.string().optional().describe('Why you decided so.'),
      }),
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
      inputSchema: toolInput({
        store: storeArg,
        instanceId: z
          .string()
          .optional()
          .describe('Only this instance’s sessions (default: yours when your connection names you, else any).'),
      }),
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
      inputSchema: toolInput({
        store: storeArg,
        instanceId: z
          .string()
          .optional()
          .describe('Only this instance’s sessions (default: yours when your connection names you, else any).'),
        limit: integer({ minimum: 1, maximum: 100 })
          .optional()
          .describe(`Most sessions, 1 to 100 (default ${DEFAULT_SESSIONS_LIMIT}).`),
      }),
      outputSchema: out.sessionsResult,
      annotations: READ,
    },
    (args) =>
      toolResult(async () => {
        const list = await ports.lifecycle.sessions(
          ctx.storeOf(args.store),
          args.instanceId ?? null,
          args.limit ?? DEFAULT_SESSIONS_LIMIT,
          caller,
        );
        return okResult({ sessions: list.map(sessionView) });
      }),
  );
}
