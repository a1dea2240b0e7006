/** Operating the service: the shutdown protocol, and the background queues and embedding progress in `health`. */
import { Arg, Ctx, FieldResolver, Mutation, Resolver, UseMiddleware } from 'type-graphql';
import { trimIds } from './trim-ids.js';
import { requireOperator } from '../../domain/index.js';
import { HealthType } from './memory-types.js';
import { QueueStatusType, ShutdownReportType } from './session-types.js';
import { StoreEmbeddingsType } from './progress-types.js';
import type { GraphQLContext } from './context.js';

@Resolver(() => HealthType)
@UseMiddleware(trimIds)
export class AdminResolver {
  @Mutation(() => ShutdownReportType, {
    description:
      'Operators only. Stops accepting work, drains the queues, flushes, writes verified cold storage to the ' +
      'configured directory and reports each step. Then the process exits.',
  })
  shutdown(
    @Arg('coldStorageDir', () => String, {
      nullable: true,
      description: 'Must be the configured directory when given (a caller cannot choose where the export goes).',
    })
    coldStorageDir: string | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    requireOperator(ctx.caller.access, 'shutdown');
    return ctx.ports.shutdown(coldStorageDir ?? null);
  }

  @FieldResolver(() => [QueueStatusType], { description: 'Background queues: depths, schedules and last runs.' })
  queues(@Ctx() ctx: GraphQLContext) {
    return ctx.ports.background.status(ctx.caller.access);
  }

  @FieldResolver(() => [StoreEmbeddingsType], {
    description:
      "Embedding progress per store: the caller's stores, each listed (an operator's, or any caller's with tokens " +
      "off: every store with memories waiting or failed). A store's recall by meaning is complete when pending and " +
      'failed are 0.',
  })
  embeddingProgress(@Ctx() ctx: GraphQLContext) {
    return ctx.ports.embeddingProgress(ctx.caller.access);
  }
}
