/**
 * Reflect sessions over GraphQL: reflectSession opens one, answerReflection answers a candidate, reflection reads one.
 */
import { Arg, Ctx, FieldResolver, ID, Mutation, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import { trimIds } from './trim-ids.js';
import { reflectPromptText, type ReflectionView } from '../../contexts/cortex/index.js';
import { ReflectInput } from './recall-types.js';
import { ReflectAnswerInput, ReflectAnswerResultType, ReflectionType } from './reflection-types.js';
import type { GraphQLContext } from './context.js';

@Resolver(() => ReflectionType)
@UseMiddleware(trimIds)
export class ReflectionResolver {
  @Mutation(() => ReflectionType, {
    description: 'Opens a reflect session over the candidates reflect finds, each with the answers that fit it.',
  })
  reflectSession(@Arg('input', () => ReflectInput) input: ReflectInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.reflection.open(input, ctx.caller);
  }

  @Mutation(() => ReflectAnswerResultType, {
    description: 'Answers one candidate of a reflection: applies the action and records what was decided and why.',
  })
  answerReflection(@Arg('input', () => ReflectAnswerInput) input: ReflectAnswerInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.reflection.answer(input, ctx.caller);
  }

  @Query(() => ReflectionType, { nullable: true, description: 'A reflection as it stands.' })
  reflection(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.reflection.get(id, ctx.caller);
  }

  @FieldResolver(() => String, {
    description:
      'The reflection as a prompt for a mind: how to answer, then each unanswered candidate with its actions.',
  })
  prompt(@Root() reflection: ReflectionView): string {
    return reflectPromptText(reflection.candidates, {
      store: reflection.store,
      reflectionId: reflection.id,
      answered: new Set(reflection.answers.map((a) => a.memoryId)),
    });
  }
}
