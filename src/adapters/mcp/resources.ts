/**
 * Resources: a store's identity core and its active context, as JSON. The
 * plain URIs read the connection's store; the templates name one.
 */
import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './context.js';
import { protocolResult } from './result.js';
import { memoryView } from './views.js';

type Part = 'identity' | 'activeContext';

/** A store the token may not reach (FORBIDDEN), say, comes back with its code, as a prompt's does. */
function read(ctx: McpContext, uri: URL, store: string | undefined, part: Part): Promise<ReadResourceResult> {
  return protocolResult(async () => {
    const name = ctx.storeOf(store);
    const state = await ctx.ports.lifecycle.resume(name, null, ctx.caller);
    const memories = state[part].map((m) => memoryView(m, ctx.ports.salienceOf));
    return {
      contents: [
        { uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ store: name, memories }, null, 2) },
      ],
    };
  });
}

const storeParam = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

export function registerResources(server: McpServer, ctx: McpContext): void {
  const parts: { part: Part; slug: string; title: string; description: string }[] = [
    {
      part: 'identity',
      slug: 'identity',
      title: 'Identity core',
      description: 'Who this mind is: the IDENTITY_CORE memories of the store (they never decay).',
    },
    {
      part: 'activeContext',
      slug: 'active-context',
      title: 'Active context',
      description: 'What this mind is working with now: the ACTIVE_CONTEXT memories of the store.',
    },
  ];
  for (const { part, slug, title, description } of parts) {
    server.registerResource(
      slug,
      `total-recall://${slug}`,
      { title, description: `${description} Of the connection's store.`, mimeType: 'application/json' },
      (uri) => read(ctx, uri, undefined, part),
    );
    server.registerResource(
      `${slug}-of-store`,
      new ResourceTemplate(`total-recall://stores/{store}/${slug}`, { list: undefined }),
      { title: `${title} of a store`, description, mimeType: 'application/json' },
      (uri, variables) => read(ctx, uri, storeParam(variables.store), part),
    );
  }
}
