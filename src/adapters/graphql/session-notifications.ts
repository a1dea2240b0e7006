/**
 * The Notification Port over GraphQL: the `notifications` subscription
 * (graphql-ws, live) and the `notifications(instanceId, after)` polling query
 * (everything kept, so a mind that was away misses nothing).
 */
import { Arg, Ctx, ID, Query, Resolver, Root, Subscription, UseMiddleware } from 'type-graphql';
import { trimIds } from './trim-ids.js';
import type { NotificationRecord } from '../../contexts/cortex/index.js';
import { NotificationType } from './session-types.js';
import type { GraphQLContext } from './context.js';

@Resolver(() => NotificationType)
@UseMiddleware(trimIds)
export class NotificationResolver {
  @Query(() => [NotificationType], {
    name: 'notifications',
    description: "An instance's notifications in arrival order, after the given one.",
  })
  pollNotifications(
    @Arg('instanceId', () => String) instanceId: string,
    @Arg('after', () => ID, { nullable: true }) after: string | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.lifecycle.notifications(instanceId, after, ctx.caller);
  }

  @Subscription(() => NotificationType, {
    name: 'notifications',
    description: "An instance's notifications as they arrive; with `after`, the ones it missed since come first.",
    subscribe: ({ args, context }) => {
      const ctx = context as GraphQLContext;
      return ctx.ports.lifecycle.listen(
        String(args.instanceId),
        (args.after as string | null | undefined) ?? null,
        ctx.caller,
      );
    },
  })
  liveNotifications(
    @Root() notification: NotificationRecord,
    @Arg('instanceId', () => String) _instanceId: string,
    @Arg('after', () => ID, { nullable: true }) _after: string | null,
  ): NotificationRecord {
    return notification;
  }
}

/**
 * type-graphql wants a PubSub whenever a schema has subscriptions; ours
 * subscribe through the ports (each resolver's `subscribe`), so this one is
 * never used.
 */
export const PORTS_PUBSUB = {
  publish(): void {
    throw new Error('subscriptions are fed by the ports, not by a PubSub');
  },
  subscribe(): AsyncIterable<unknown> {
    throw new Error('subscriptions are fed by the ports, not by a PubSub');
  },
};
