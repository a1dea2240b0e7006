/** GraphQL types of reflect sessions: a reflection, its answers, and the answer input. */
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { AssociationType, MemoryRecord, MergeStrategy, ReflectActionKind, Tier } from '../../domain/index.js';
import { DateTimeScalar } from './scalars.js';
import { AssociationTypeEnum, MergeStrategyEnum, ReflectActionKindEnum, TierEnum } from './enums.js';
import { MemoryType } from './memory-types.js';
import { ReflectCandidateType } from './recall-types.js';

@ObjectType('ReflectAnswer', {
  description:
    'What the mind decided about one candidate, and why (kept as a ReflectionAnswered event on the memories).',
})
export class ReflectAnswerType {
  @Field(() => ID) id!: string;
  @Field(() => ID) memoryId!: string;
  @Field(() => ReflectActionKindEnum) action!: ReflectActionKind;
  @Field(() => String) why!: string;
  @Field(() => DateTimeScalar) at!: number;
  @Field(() => ID, {
    nullable: true,
    description: 'The memory the answer left: the consolidation for CONSOLIDATE; null after FORGET.',
  })
  resultMemoryId!: string | null;
  @Field(() => [ID], { description: 'The other memories the answer involved.' }) with!: string[];
}

@ObjectType('Reflection', { description: 'A reflect session: candidates to walk, each answered once.' })
export class ReflectionType {
  @Field(() => ID) id!: string;
  @Field(() => String) store!: string;
  @Field(() => DateTimeScalar) startedAt!: number;
  @Field(() => [ReflectCandidateType], { description: 'The candidates as offered (a forgotten memory drops out).' })
  candidates!: ReflectCandidateType[];
  @Field(() => [ReflectAnswerType]) answers!: ReflectAnswerType[];
  @Field(() => Int, { description: 'Candidates not answered yet.' }) remaining!: number;
  @Field(() => ReflectCandidateType, { nullable: true, description: 'The first candidate without an answer.' })
  next!: ReflectCandidateType | null;
}

@ObjectType('ReflectAnswerResult')
export class ReflectAnswerResultType {
  @Field(() => ReflectAnswerType) answer!: ReflectAnswerType;
  @Field(() => MemoryType, { nullable: true, description: 'The memory after the answer (null after FORGET).' })
  memory!: MemoryRecord | null;
  @Field(() => ReflectionType, { description: 'The reflection with this answer: remaining and next.' })
  reflection!: ReflectionType;
}

@InputType('ReflectAnswerInput')
export class ReflectAnswerInput {
  @Field(() => ID) reflectionId!: string;
  @Field(() => ID) memoryId!: string;
  @Field(() => ReflectActionKindEnum) action!: ReflectActionKind;
  @Field(() => String, {
    description: "Why, in the mind's own words (kept in the trail; the reason of a RECLASSIFY or FORGET).",
  })
  why!: string;
  @Field(() => TierEnum, { nullable: true, description: 'RECLASSIFY: the tier (default: the one offered).' })
  tier?: Tier | null;
  @Field(() => [ID], {
    nullable: true,
    description: 'ASSOCIATE / CONSOLIDATE: the other memories (default: the ones offered).',
  })
  with?: string[] | null;
  @Field(() => AssociationTypeEnum, {
    nullable: true,
    description: "ASSOCIATE: the type of every link (default: each offered memory's own).",
  })
  associationType?: AssociationType | null;
  @Field(() => MergeStrategyEnum, {
    nullable: true,
    description: 'CONSOLIDATE: default COMBINE (SUMMARIZE needs content).',
  })
  strategy?: MergeStrategy | null;
  @Field(() => String, { nullable: true }) content?: string | null;
  @Field(() => ID, { nullable: true, description: 'FORGET: your consent, repeating memoryId.' }) confirmId?:
    | string
    | null;
}
