/** The MCP tools for links between memories: associate and neighbourhood. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ASSOCIATION_DIRECTIONS, ASSOCIATION_TYPES, DEFAULT_NEIGHBOURHOOD_LIMIT } from '../../domain/index.js';
import type { McpContext } from './context.js';
import { okResult, toolResult } from './result.js';
import * as out from './schemas.js';
import { associationView } from './views.js';
import { id, integer, list, number, oneOf, READ, toolInput, toolKit, WRITE } from './tool-args.js';

export function registerAssociationTools(server: McpServer, ctx: McpContext): void {
  const { ports, caller, salienceOf } = toolKit(ctx);

  server.registerTool(
    'associate',
    {
      title: 'Link two memories',
      description:
        'Create, strengthen or weaken a typed link between two memories of one store (TEMPORAL, CAUSAL, THEMATIC, ' +
        'EMOTIONAL, PERSON). Links carry recall from one memory to the other.',
      inputSchema: toolInput({
        a: id('One memory id.'),
        b: id('The other memory id (of the same store).'),
        type: oneOf(ASSOCIATION_TYPES).describe(
          'TEMPORAL (close in time), CAUSAL (one led to the other), THEMATIC (a shared topic), EMOTIONAL (a shared ' +
            'feeling) or PERSON (shared people).',
        ),
        direction: oneOf(ASSOCIATION_DIRECTIONS).optional().describe('CREATE (default), STRENGTHEN or WEAKEN.'),
        strength: number()
          .optional()
          .describe(
            'CREATE: the strength in (0,1] (default 0.6). STRENGTHEN / WEAKEN: the step in (0,1] (default 0.2).',
          ),
      }),
      outputSchema: out.associationResult,
      annotations: WRITE,
    },
    (args) =>
      toolResult(async () => {
        const view = await ports.associations.associate(
          { a: args.a, b: args.b, type: args.type, direction: args.direction ?? null, strength: args.strength ?? null },
          caller,
        );
        return okResult({ association: associationView(view, salienceOf) });
      }),
  );

  server.registerTool(
    'neighbourhood',
    {
      title: 'Neighbourhood of a memory',
      description:
        'The memories linked to one memory within `depth` links (1 to 3), nearest and strongest first, each with the ' +
        'link type and strength.',
      inputSchema: toolInput({
        id: id('The memory id.'),
        depth: integer({ minimum: 1, maximum: 3 }).optional().describe('Links away, 1 to 3 (default 1).'),
        types: list(oneOf(ASSOCIATION_TYPES))
          .optional()
          .describe('Only links of these types: TEMPORAL, CAUSAL, THEMATIC, EMOTIONAL, PERSON (default all).'),
        limit: integer({ minimum: 1, maximum: 1000 })
          .optional()
          .describe(`Most associations, 1 to 1000 (default ${DEFAULT_NEIGHBOURHOOD_LIMIT}).`),
      }),
      outputSchema: out.neighbourhoodResult,
      annotations: READ,
    },
    (args) =>
      toolResult(async () => {
        // With the caller: a memory of a store its token may not reach has no neighbourhood it can see.
        const views = await ports.associations.neighbourhood(
          args.id,
          { depth: args.depth ?? 1, types: args.types ?? null, limit: args.limit ?? DEFAULT_NEIGHBOURHOOD_LIMIT },
          caller,
        );
        return okResult({ associations: views.map((v) => associationView(v, salienceOf)) });
      }),
  );
}
