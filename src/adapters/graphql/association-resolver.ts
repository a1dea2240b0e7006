/** Associations over GraphQL: associate, neighbourhood, and the Memory.associations field. */
import { Arg, Ctx, FieldResolver, Float, ID, Int, Mutation, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import { trimIds } from './trim-ids.js';
import {
  DEFAULT_ASSOCIATIONS_LIMIT,
  DEFAULT_NEIGHBOURHOOD_LIMIT,
  type AssociationType,
  type MemoryRecord,
} from '../../domain/index.js';
import { AssociationTypeEnum } from './enums.js';
import { MemoryType } from './memory-types.js';
import { AssociateInput, AssociationObject } from './association-types.js';
import type { GraphQLContext } from './context.js';
import { charge, REQUEST_BUDGETS } from './request-budget.js';

@Resolver(() => MemoryType)
@UseMiddleware(trimIds)
export class AssociationResolver {
  @Mutation(() => AssociationObject, {
    description:
      "The mind's own link: CREATE, STRENGTHEN or WEAKEN a typed association between two memories of one store.",
  })
  associate(@Arg('input', () => AssociateInput) input: AssociateInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.associations.associate(input, ctx.caller);
  }

  @Query(() => [AssociationObject], {
    description: 'Associations within `depth` links (1 to 3) of a memory, nearest and strongest first.',
  })
  neighbourhood(
    @Arg('id', () => ID) id: string,
    @Arg('depth', () => Int, { defaultValue: 1, nullable: true }) depth: number,
    @Arg('types', () => [AssociationTypeEnum], { nullable: true }) types: AssociationType[] | null,
    @Arg('limit', () => Int, {
      defaultValue: DEFAULT_NEIGHBOURHOOD_LIMIT,
      nullable: true,
      description: 'At most this many associations (1 to 1000).',
    })
    limit: number,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.associations.neighbourhood(id, { depth, types, limit }, ctx.caller);
  }

  @FieldResolver(() => [AssociationObject], {
    description:
      `This memory's associations, strongest first (limit 1 to 1000; the limits of one request add up to at most ` +
      `${REQUEST_BUDGETS['Memory.associations']}).`,
  })
  associations(
    @Root() memory: MemoryRecord,
    @Arg('types', () => [AssociationTypeEnum], { nullable: true }) types: AssociationType[] | null,
    @Arg('minStrength', () => Float, { nullable: true }) minStrength: number | null,
    @Arg('limit', () => Int, { defaultValue: DEFAULT_ASSOCIATIONS_LIMIT, nullable: true }) limit: number | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    const wanted = limit ?? DEFAULT_ASSOCIATIONS_LIMIT; // an explicit null reads the default
    charge(ctx, 'Memory.associations', wanted);
    return ctx.ports.associations.of(memory.id, { types, minStrength, limit: wanted });
  }
}
