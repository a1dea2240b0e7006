/** Recall over GraphQL: search, contextFor, reflect, markUsed, reportOutcome. */
import { Arg, Ctx, ID, Mutation, Query, Resolver, UseMiddleware } from 'type-graphql';
import { trimIds } from './trim-ids.js';
import type { OutcomeKind } from '../../domain/index.js';
import { JSONScalar } from './scalars.js';
import { OutcomeKindEnum } from './enums.js';
import {
  ContextInput,
  ContextPackType,
  RecallType,
  ReflectCandidateType,
  ReflectInput,
  SearchInput,
  UseType,
} from './recall-types.js';
import type { GraphQLContext } from './context.js';

@Resolver()
@UseMiddleware(trimIds)
export class RecallResolver {
  @Query(() => RecallType, {
    description: 'What do I remember about X? Ranked hits, each with a confidence, and a frame line.',
  })
  search(@Arg('input', () => SearchInput) input: SearchInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.recall.search(input, ctx.caller);
  }

  @Query(() => ContextPackType, { description: 'Recalled memories packed into a token budget, frame line first.' })
  contextFor(@Arg('input', () => ContextInput) input: ContextInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.recall.contextFor(input, ctx.caller);
  }

  @Query(() => [ReflectCandidateType], { description: 'Memories to review: stale, recent, weakly associated.' })
  reflect(@Arg('input', () => ReflectInput) input: ReflectInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.recall.reflect(
      input.store,
      input.scope ?? 'ALL',
      input.timeSpanDays ?? null,
      input.limit ?? 20,
      ctx.caller,
    );
  }

  @Mutation(() => UseType, {
    description: 'Says which recalled memories were used (all of the recall when memoryIds is omitted).',
  })
  markUsed(
    @Arg('recallId', () => ID) recallId: string,
    @Arg('memoryIds', () => [ID], { nullable: true }) memoryIds: string[] | null,
    @Arg('action', () => JSONScalar, { nullable: true }) action: unknown,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.recall.markUsed(recallId, memoryIds ?? null, action ?? null, ctx.caller);
  }

  @Mutation(() => UseType, { description: 'How using those memories went; ranking learns from it.' })
  reportOutcome(
    @Arg('useId', () => ID) useId: string,
    @Arg('outcome', () => OutcomeKindEnum) outcome: OutcomeKind,
    @Arg('note', () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.recall.reportOutcome(useId, outcome, note ?? null, ctx.caller);
  }
}
