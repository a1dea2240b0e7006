/** GraphQL types of Recall: hits with confidence, recalls, context packs, reflection, feedback. */
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import type {
  AssociationType,
  MemoryRecord,
  OutcomeKind,
  ReflectActionKind,
  ReflectionScope,
  Tier,
} from '../../domain/index.js';
import { DEFAULT_INJECT_FLOOR, DEFAULT_LIVE_FLOOR } from '../../contexts/recall/index.js';
import { DateTimeScalar } from './scalars.js';
import { AssociationTypeEnum, OutcomeKindEnum, ReflectActionKindEnum, ReflectionScopeEnum, TierEnum } from './enums.js';
import { MemoryType } from './memory-types.js';

@ObjectType('RecallHit')
export class RecallHitType {
  @Field(() => MemoryType) memory!: MemoryRecord;
  @Field(() => Float, { description: 'Calibrated probability in [0,1] that this is what was asked for.' })
  confidence!: number;
  @Field(() => Float, {
    description: "Confidence from the memory's own match alone (meaning, words, names, dates), without association.",
  })
  relevance!: number;
  @Field(() => Float) salience!: number;
  @Field(() => Float, {
    description:
      "Share of a seed's weight that reached it over associations, in [0,1]; it counts toward confidence times that " +
      "seed's own confidence.",
  })
  activation!: number;
  @Field(() => [AssociationTypeEnum], {
    description: 'Association types walked to reach it; empty for a direct match.',
  })
  path!: AssociationType[];
  @Field(() => [ID], {
    description:
      "Memories this hit stands for, left out of the list: a consolidated memory's originals, or the consolidated " +
      'memory an original went into (the one with more evidence is shown).',
  })
  represents!: string[];
}

@ObjectType('Recall')
export class RecallType {
  @Field(() => ID, { description: 'For markUsed.' }) id!: string;
  @Field(() => String) query!: string;
  @Field(() => [RecallHitType]) hits!: RecallHitType[];
  @Field(() => String, { description: 'One honest line: how many, how sure.' }) frame!: string;
}

@ObjectType('ContextPack')
export class ContextPackType {
  @Field(() => ID) recallId!: string;
  @Field(() => String, { description: 'Frame line first, then the memories, labelled as recalled.' }) text!: string;
  @Field(() => [RecallHitType]) hits!: RecallHitType[];
  @Field(() => Int) estimatedTokens!: number;
  @Field(() => Int, { description: 'Hits cut by floor, budget or count.' }) dropped!: number;
}

@ObjectType('ReflectAction', { description: 'An answer that fits a reflect candidate, with what it would act on.' })
export class ReflectActionType {
  @Field(() => ReflectActionKindEnum) kind!: ReflectActionKind;
  @Field(() => String) description!: string;
  @Field(() => TierEnum, { nullable: true, description: 'RECLASSIFY: the tier it would go to.' }) tier!: Tier | null;
  @Field(() => [MemoryType], {
    description: 'ASSOCIATE: the memories it is weakly tied to; CONSOLIDATE: its near-duplicates.',
  })
  memories!: MemoryRecord[];
  @Field(() => [AssociationTypeEnum], { description: 'ASSOCIATE: the type each of those memories would be linked by.' })
  associationTypes!: AssociationType[];
  @Field(() => Boolean, { description: 'FORGET: only with explicit consent (confirmId repeats the id).' })
  needsConsent!: boolean;
}

@ObjectType('ReflectCandidate')
export class ReflectCandidateType {
  @Field(() => MemoryType) memory!: MemoryRecord;
  @Field(() => String) reason!: string;
  @Field(() => Float, { nullable: true }) staleDays!: number | null;
  @Field(() => Int) associationCount!: number;
  @Field(() => [ReflectActionType], { description: 'The answers that fit it; KEEP is always one.' })
  actions!: ReflectActionType[];
}

@ObjectType('Use')
export class UseType {
  @Field(() => ID) id!: string;
  @Field(() => ID) recallId!: string;
  @Field(() => [ID]) memoryIds!: string[];
  @Field(() => OutcomeKindEnum, { nullable: true }) outcome!: OutcomeKind | null;
  @Field(() => DateTimeScalar) at!: number;
}

@InputType('SearchInput')
export class SearchInput {
  @Field(() => String) query!: string;
  @Field(() => String, { nullable: true }) store?: string | null;
  @Field(() => [TierEnum], { nullable: true }) tiers?: Tier[] | null;
  @Field(() => Int, { nullable: true, defaultValue: 10 }) limit?: number | null;
  @Field(() => Boolean, { nullable: true, defaultValue: true }) includeAssociations?: boolean | null;
  @Field(() => Float, { nullable: true }) minConfidence?: number | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'occurredAt on or after' }) from?: number | null;
  @Field(() => DateTimeScalar, { nullable: true, description: 'occurredAt on or before' }) to?: number | null;
  @Field(() => [String], { nullable: true, description: 'any of these tags' }) tags?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'any of these people' }) people?: string[] | null;
  @Field(() => ID, { nullable: true }) sessionId?: string | null;
}

@InputType('ContextInput')
export class ContextInput {
  @Field(() => String) query!: string;
  @Field(() => String, { nullable: true }) store?: string | null;
  @Field(() => ID, { nullable: true, description: 'The current session: its memories need only the live floor.' })
  sessionId?: string | null;
  @Field(() => Int) maxTokens!: number;
  @Field(() => Int, { nullable: true, defaultValue: 8 }) maxItems?: number | null;
  @Field(() => Float, {
    nullable: true,
    description: `Minimum confidence to reach the window (default ${DEFAULT_INJECT_FLOOR}).`,
  })
  injectFloor?: number | null;
  @Field(() => Float, {
    nullable: true,
    description: `Lower floor for memories of the current session (default ${DEFAULT_LIVE_FLOOR}).`,
  })
  liveFloor?: number | null;
}

@InputType('ReflectInput')
export class ReflectInput {
  @Field(() => String, { nullable: true }) store?: string | null;
  @Field(() => ReflectionScopeEnum, { nullable: true, defaultValue: 'ALL' }) scope?: ReflectionScope | null;
  @Field(() => Int, { nullable: true }) timeSpanDays?: number | null;
  @Field(() => Int, { nullable: true, defaultValue: 20 }) limit?: number | null;
}
