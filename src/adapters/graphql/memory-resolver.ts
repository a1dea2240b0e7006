/** Memory Port over GraphQL: store, read, claim, reclassify, consolidate, forget, audit trail. */
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, Float, UseMiddleware } from 'type-graphql';
import { trimIds } from './trim-ids.js';
import { DEFAULT_HISTORY_LIMIT, type MemoryRecord, type MergeStrategy, type Tier } from '../../domain/index.js';
import { JSONScalar } from './scalars.js';
import { MergeStrategyEnum, TierEnum } from './enums.js';
import { ForgetInput, ForgetResultType, HealthType, MemoryEventType, MemoryType, StoreInput } from './memory-types.js';
import type { GraphQLContext } from './context.js';
import { charge, REQUEST_BUDGETS } from './request-budget.js';

/** Events of a store's trail read when the caller names no limit, or names null. */
const EVENTS_LIMIT = 100;

@Resolver(() => MemoryType)
@UseMiddleware(trimIds)
export class MemoryResolver {
  @Query(() => MemoryType, { nullable: true, description: 'Reads a memory by id; this counts as an access.' })
  memory(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<MemoryRecord | null> {
    return ctx.ports.memory.memory(id, ctx.caller);
  }

  @Query(() => [MemoryEventType], { description: "A store's audit trail in time order, after the given event id." })
  events(
    @Arg('store', () => String, { nullable: true }) store: string | null,
    @Arg('after', () => ID, { nullable: true }) after: string | null,
    @Arg('limit', () => Int, { defaultValue: EVENTS_LIMIT, nullable: true }) limit: number | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.memory.events(store, after, limit ?? EVENTS_LIMIT, ctx.caller);
  }

  @Query(() => HealthType)
  health(@Ctx() ctx: GraphQLContext) {
    return ctx.ports.health(ctx.caller.access);
  }

  @Mutation(() => MemoryType, { description: 'Stores one memory. With a client id, a retry is a no-op.' })
  async store(@Arg('input', () => StoreInput) input: StoreInput, @Ctx() ctx: GraphQLContext): Promise<MemoryRecord> {
    const [stored] = await ctx.ports.memory.store([input as never], ctx.caller);
    return (stored as { memory: MemoryRecord }).memory;
  }

  @Mutation(() => [MemoryType], { description: 'Stores a batch in one transaction: all or nothing.' })
  async storeMany(
    @Arg('inputs', () => [StoreInput]) inputs: StoreInput[],
    @Ctx() ctx: GraphQLContext,
  ): Promise<MemoryRecord[]> {
    return (await ctx.ports.memory.store(inputs as never[], ctx.caller)).map((s) => s.memory);
  }

  @Mutation(() => MemoryType, { description: 'Claims a memory: "this matters to me". Claimed memories resist decay.' })
  claim(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.memory.claim(id, ctx.caller);
  }

  @Mutation(() => MemoryType, { description: "The mind's own tier change; the reason is kept in the history." })
  reclassify(
    @Arg('id', () => ID) id: string,
    @Arg('tier', () => TierEnum) tier: Tier,
    @Arg('reason', () => String) reason: string,
    @Arg('metadata', () => JSONScalar, { nullable: true }) metadata: unknown,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.memory.reclassify(id, tier, reason, metadata ?? null, ctx.caller);
  }

  @Mutation(() => MemoryType, { description: 'Makes a new memory from several; the originals are kept and linked.' })
  consolidate(
    @Arg('ids', () => [ID]) ids: string[],
    @Arg('strategy', () => MergeStrategyEnum) strategy: MergeStrategy,
    @Arg('content', () => String, { nullable: true }) content: string | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.memory.consolidate(ids, strategy, content ?? null, ctx.caller);
  }

  @Mutation(() => ForgetResultType, {
    description: 'Removes a memory for good, with explicit consent (confirmId = id). A tombstone stays.',
  })
  forget(@Arg('input', () => ForgetInput) input: ForgetInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.memory.forget(input.id, input.confirmId, input.reason, ctx.caller);
  }

  // ── fields of Memory ──────────────────────────────────────────────────────

  @FieldResolver(() => Float, { description: 'Current score in [0,1], decayed to now.' })
  salience(@Root() memory: MemoryRecord, @Ctx() ctx: GraphQLContext): number {
    return ctx.ports.salienceOf(memory);
  }

  @FieldResolver(() => [MemoryType])
  consolidatedFrom(@Root() memory: MemoryRecord, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.memory.consolidatedFrom(memory.id, ctx.caller);
  }

  @FieldResolver(() => [MemoryEventType], {
    description:
      `The newest events about this memory, in time order (limit 1 to 1000; the limits of one request add up to ` +
      `at most ${REQUEST_BUDGETS['Memory.history']}).`,
  })
  history(
    @Root() memory: MemoryRecord,
    @Arg('limit', () => Int, { defaultValue: DEFAULT_HISTORY_LIMIT, nullable: true }) limit: number | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    const wanted = limit ?? DEFAULT_HISTORY_LIMIT; // an explicit null reads the default
    charge(ctx, 'Memory.history', wanted);
    return ctx.ports.memory.history(memory.id, wanted);
  }
}
