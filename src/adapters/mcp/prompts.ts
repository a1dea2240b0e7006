/**
 * Prompts: the session audit ("what of this session do you want to keep?")
 * and a reflection built from `reflect` candidates.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpError, ErrorCode, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { REFLECTION_SCOPES, type MemoryRecord } from '../../domain/index.js';
import { publicError } from '../graphql/index.js';
import type { McpContext } from './context.js';

const userMessage = (text: string): GetPromptResult['messages'][number] => ({ role: 'user', content: { type: 'text', text } });
const line = (m: MemoryRecord) => `- ${m.id} (${new Date(m.occurredAt).toISOString().slice(0, 10)}, ${m.tier}): ${m.content}`;

/** A prompt that cannot be built is a protocol error carrying the domain code. */
async function built(run: () => Promise<GetPromptResult>): Promise<GetPromptResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof McpError) throw error;
    const e = publicError(error, 'mcp');
    throw new McpError(ErrorCode.InvalidParams, `${e.code}: ${e.message}`, { code: e.code });
  }
}

export function registerPrompts(server: McpServer, ctx: McpContext): void {
  server.registerPrompt(
    'session-audit',
    {
      title: 'Session audit',
      description: 'What of this session do you want to keep? Lists the unclaimed memories of a session (default: the newest of the store) to claim.',
      argsSchema: { sessionId: z.string().optional().describe('The session to audit (default: the newest of the store).'), store: z.string().optional() },
    },
    (args) =>
      built(async () => {
        const session = args.sessionId
          ? await ctx.ports.lifecycle.session(args.sessionId, ctx.caller)
          : (await ctx.ports.lifecycle.resume(ctx.storeOf(args.store), null, ctx.caller)).session;
        if (!session) throw new McpError(ErrorCode.InvalidParams, 'CORTEX.SESSION_NOT_FOUND: no such session visible to you', { code: 'CORTEX.SESSION_NOT_FOUND' });
        const audit = await ctx.ports.lifecycle.audit(session);
        const list = audit.unclaimed.length ? audit.unclaimed.map(line).join('\n') : '(every memory of this session is claimed already)';
        const text = [
          `What of this session do you want to keep? (${audit.prompt})`,
          `Session ${session.id}${session.task ? ` on "${session.task}"` : ''}: ${audit.memoriesStored} memories stored; unclaimed, they fade:`,
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
      description: 'A review of the memories `reflect` finds worth a second look (stale, recent, weakly linked), with what to do about each.',
      argsSchema: {
        store: z.string().optional(),
        scope: z.enum(REFLECTION_SCOPES).optional().describe('ALL (default), STALE, RECENT or WEAK_ASSOCIATIONS.'),
        limit: z.string().optional().describe('Most candidates (default 10).'),
      },
    },
    (args) =>
      built(async () => {
        const limit = args.limit ? Number.parseInt(args.limit, 10) : 10;
        const candidates = await ctx.ports.recall.reflect(ctx.storeOf(args.store), args.scope ?? 'ALL', null, limit, ctx.caller);
        const list = candidates.length
          ? candidates.map((c) => `${line(c.memory)}\n  why: ${c.reason}; ${c.associationCount} links${c.staleDays === null ? '' : `; unused for ${c.staleDays} days`}`).join('\n')
          : '(nothing to review)';
        const text = [
          'Reflect on these memories of yours. For each, decide: `claim` it (it matters), `reclassify` it (IDENTITY_CORE, LONG_TERM, ARCHIVE), ' +
            '`associate` it with a related memory, or leave it. Use `forget` only when the user explicitly consents.',
          list,
        ].join('\n\n');
        return { description: `${candidates.length} memories to review`, messages: [userMessage(text)] };
      }),
  );
}
