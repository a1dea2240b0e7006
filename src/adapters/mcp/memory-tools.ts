/** The MCP tools for storing and shaping memories: remember, claim, reclassify, forget. */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { TIERS } from '../../domain/index.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import * as out from './schemas.js';
import { asInstance } from '../../contexts/cortex/index.js';
import {
  id,
  instanceArg,
  jsonObject,
  labels,
  oneOf,
  parseTime,
  storeArg,
  toolInput,
  toolKit,
  WRITE,
} from './tool-args.js';

export function registerMemoryTools(server: McpServer, ctx: McpContext): void {
  const { ports, caller, memory } = toolKit(ctx);

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Store one memory: something you lived through, learned or decided, in your own words, self-contained (it ' +
        'will be read later without this conversation). One thing per memory: recall ranks a memory longer than a ' +
        'paragraph below a short one with the same evidence, so store a long document as a paragraph per memory. ' +
        'Add tags, people and emotions when they apply; they link it to related memories. Give a client `id` to ' +
        'make a retry safe (the same id stores nothing twice). While a session of yours is open, pass the ' +
        '`instanceId` you gave session_start (unless your connection names you): the memory then belongs to the ' +
        'session. Returns the memory with its tier and salience.',
      inputSchema: toolInput({
        content: z
          .string()
          .describe('What to remember (at most 64 KiB of UTF-8; store a long text as one paragraph per memory).'),
        store: storeArg,
        tier: oneOf(TIERS)
          .optional()
          .describe(
            'Where it lives: IDENTITY_CORE (who you are; never decays), ACTIVE_CONTEXT (what you work with now), ' +
              'LONG_TERM (default), ARCHIVE.',
          ),
        tags: labels('Topics, e.g. ["travel", "project-x"].'),
        people: labels('People it involves.'),
        emotions: labels('Emotions it carries.'),
        metadata: jsonObject('Any JSON object kept with it (at most 16 KiB, 20 levels deep).'),
        occurredAt: z
          .string()
          .optional()
          .describe(
            'When it happened: ISO-8601, such as 2026-05-01T12:00:00Z (a date alone or no offset is UTC); default now.',
          ),
        id: z
          .string()
          .optional()
          .describe(
            'A client id of your choosing: a retry with the same id is a no-op; an id this store forgot is refused ' +
              '(HIPPOCAMPUS.ID_FORGOTTEN).',
          ),
        instanceId: instanceArg,
      }),
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
          asInstance(caller, args.instanceId),
        );
        const result = { memory: memory(stored!.memory), created: stored!.created };
        return okResult(
          result,
          `${result.created ? 'Remembered' : 'Already remembered'} ${result.memory.id} (${result.memory.tier}).`,
        );
      }),
  );

  server.registerTool(
    'claim',
    {
      title: 'Claim a memory',
      description:
        'Say "this matters to me" about a memory: claimed memories decay several times slower and strengthen their ' +
        'links.',
      inputSchema: toolInput({ id: id('The memory id.') }),
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
        'Your own tier change, with a reason kept in its history: IDENTITY_CORE (who you are, never decays), ' +
        'ACTIVE_CONTEXT (now), LONG_TERM, ARCHIVE. Nothing is deleted.',
      inputSchema: toolInput({
        id: id('The memory id.'),
        tier: oneOf(TIERS).describe('The tier to move it to: IDENTITY_CORE, ACTIVE_CONTEXT, LONG_TERM or ARCHIVE.'),
        reason: z.string().describe('Why; kept in the audit trail (required, not empty).'),
        metadata: jsonObject('Any JSON object kept with the change.'),
      }),
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
    'forget',
    {
      title: 'Forget a memory for good',
      description:
        'Removes a memory permanently (a tombstone stays in the audit trail). Only with explicit consent: confirmId ' +
        'must repeat the id exactly, and a reason is required. Ask the user before you call it; prefer reclassify to ' +
        'ARCHIVE when in doubt. consolidatedInto names memories consolidated from it: they stay, and still say ' +
        'what it said, until forgotten themselves.',
      inputSchema: toolInput({
        id: id('The memory id.'),
        confirmId: id('The same id again: your explicit consent.'),
        reason: z.string().describe('Why it must go; kept in the tombstone (required, not empty).'),
      }),
      outputSchema: out.forgetResult,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      toolResult(async () =>
        okResult({ ...(await ports.memory.forget(args.id, args.confirmId, args.reason, caller)) }),
      ),
  );
}
