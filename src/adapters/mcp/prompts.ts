/**
 * Prompts: the session audit ("what of this session do you want to keep?")
 * and a reflection built from `reflect` candidates.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ErrorCode, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { REFLECTION_SCOPES, type MemoryRecord } from '../../domain/index.js';
import type { McpContext } from './context.js';
import { protocolResult } from './result.js';
import { reflectPrompt } from '../../contexts/cortex/index.js';

const userMessage = (text: string): GetPromptResult['messages'][number] => ({
  role: 'user',
  content: { type: 'text', text },
});
const line = (m: MemoryRecord) =>
  `- ${m.id} (${new Date(m.occurredAt).toISOString().slice(0, 10)}, ${m.tier}): ${m.content}`;

export function registerPrompts(server: McpServer, ctx: McpContext): void {
  server.registerPrompt(
    'session-audit',
    {
      title: 'Session audit',
      description:
        'What of this session do you want to keep? Lists the unclaimed memories of a session (default: the newest of ' +
        'the store) to claim.',
      argsSchema: {
        sessionId: z.string().optional().describe('The session to audit (default: the newest of the store).'),
        store: z.string().optional(),
      },
    },
    (args) =>
      protocolResult(async () => {
        const session = args.sessionId
          ? await ctx.ports.lifecycle.session(args.sessionId, ctx.caller)
          : (await ctx.ports.lifecycle.resume(ctx.storeOf(args.store), null, ctx.caller)).session;
        if (!session)
          throw new McpError(ErrorCode.InvalidParams, 'CORTEX.SESSION_NOT_FOUND: no such session visible to you', {
            code: 'CORTEX.SESSION_NOT_FOUND',
          });
        const audit = await ctx.ports.lifecycle.audit(session);
        const list = audit.unclaimed.length
          ? audit.unclaimed.map(line).join('\n')
          : '(every memory of this session is claimed already)';
        const text = [
          `What of this session do you want to keep? (${audit.prompt})`,
          `Session ${session.id}${session.task ? ` on "${session.task}"` : ''}: ` +
            `${audit.memoriesStored} memories stored; unclaimed, they fade:`,
          list,
          'Call the `claim` tool with the id of each memory you refuse to lose. Leave the rest; nothing is deleted.',
        ].join('\n\n');
        return { description: `Audit of session ${session.id}`, messages: [userMessage(text)] };
      }),
  );

  server.registerPrompt(
    'reflect',
    {
      title: 'Reflect on memories',
      description:
        'A reflect session: the memories worth a second look (stale, recent, weakly linked), each with the answers ' +
        'that fit it, to answer with reflect_answer.',
      argsSchema: {
        store: z.string().optional(),
        scope: z.enum(REFLECTION_SCOPES).optional().describe('ALL (default), STALE, RECENT or WEAK_ASSOCIATIONS.'),
        limit: z.string().optional().describe('Most candidates (default 10).'),
      },
    },
    (args) =>
      protocolResult(async () => {
        const limit = args.limit ? Number.parseInt(args.limit, 10) : 10;
        // A reflect session: the answers go to this reflection and are kept as events on the memories.
        const view = await ctx.ports.reflection.open(
          { store: ctx.storeOf(args.store), scope: args.scope ?? null, limit },
          ctx.caller,
        );
        // Spoken to an MCP client: it answers with the reflect_answer tool, not GraphQL's answerReflection.
        const prompt = reflectPrompt(view.candidates, { store: view.store, reflectionId: view.id, speaksTo: 'mcp' });
        return {
          description: prompt.description,
          messages: prompt.messages.map((m) => ({ role: m.role, content: { ...m.content } })),
        };
      }),
  );
}
