/** GraphQL object and input types for memories and their audit trail. */
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { Tier } from '../../domain/index.js';
import { DateTimeScalar, JSONScalar } from './scalars.js';
import { TierEnum } from './enums.js';
import { ProgressType } from './progress-types.js';

@ObjectType('Memory', { description: 'One remembered thing, in exactly one store and one tier.' })
export class MemoryType {
  @Field(() => ID) id!: string;
  @Field(() => String) store!: string;
  @Field(() => String) content!: string;
  @Field(() => TierEnum) tier!: Tier;
  @Field(() => Boolean) claimed!: boolean;
  @Field(() => [String]) tags!: string[];
  @Field(() => [String]) people!: string[];
  @Field(() => [String]) emotions!: string[];
  @Field(() => JSONScalar, { nullable: true }) metadata!: unknown;
  @Field(() => DateTimeScalar, { description: 'When it happened; defaults to createdAt.' }) occurredAt!: number;
  @Field(() => DateTimeScalar) createdAt!: number;
  @Field(() => DateTimeScalar, { nullable: true }) lastAccessedAt!: number | null;
  @Field(() => Int) accessCount!: number;
  @Field(() => ID, { nullable: true }) sessionId!: string | null;
}

@ObjectType('MemoryEvent', { description: 'One entry of the audit trail.' })
export class MemoryEventType {
  @Field(() => ID) id!: string;
  @Field(() => String) type!: string;
  @Field(() => DateTimeScalar) at!: number;
  @Field(() => ID, { nullable: true }) memoryId!: string | null;
  @Field(() => ID, { nullable: true }) sessionId!: string | null;
  @Field(() => ID, { nullable: true }) causationId!: string | null;
  @Field(() => JSONScalar, { nullable: true }) payload!: unknown;
}

@ObjectType('ForgetResult')
export class ForgetResultType {
  @Field(() => ID) id!: string;
  @Field(() => Boolean) forgotten!: boolean;
  @Field(() => [ID], {
    description:
      'Memories consolidated from the forgotten one. They are memories of their own and stay, still saying what it ' +
      'said (their record of it loses its metadata): forget them too if that should go.',
  })
  consolidatedInto!: string[];
}

@ObjectType('Health')
export class HealthType {
  @Field(() => Boolean) neo4j!: boolean;
  @Field(() => Boolean) redis!: boolean;
  @Field(() => String) version!: string;
  @Field(() => Int) memories!: number;
  @Field(() => Boolean) accepting!: boolean;
  @Field(() => String, {
    description: '"ready", "loading", "disabled" or "missing: <reason>" (recall is then lexical only).',
  })
  embeddings!: string;
  @Field(() => [String], {
    description:
      'What works less well right now, one line each ("neo4j: …", "redis: …", "embeddings: …"); empty when ' +
      'everything is up.',
  })
  degraded!: string[];
  @Field(() => [ProgressType], {
    description: 'Long operations of this process: running ones first, then those finished in the last ten minutes.',
  })
  progress!: ProgressType[];
}

@InputType('StoreInput')
export class StoreInput {
  @Field(() => ID, {
    nullable: true,
    description:
      'Client-chosen: a retried store is a no-op; an id this store forgot is refused (HIPPOCAMPUS.ID_FORGOTTEN).',
  })
  id?: string | null;
  @Field(() => String, { nullable: true }) store?: string | null;
  @Field(() => String) content!: string;
  @Field(() => TierEnum, { nullable: true, defaultValue: 'LONG_TERM' }) tier?: Tier | null;
  @Field(() => [String], { nullable: true }) tags?: string[] | null;
  @Field(() => [String], { nullable: true }) people?: string[] | null;
  @Field(() => [String], { nullable: true }) emotions?: string[] | null;
  @Field(() => JSONScalar, { nullable: true }) metadata?: unknown;
  @Field(() => DateTimeScalar, { nullable: true }) occurredAt?: number | null;
  @Field(() => ID, { nullable: true }) sessionId?: string | null;
  @Field(() => [Float], { nullable: true, description: 'Optional, client-computed.' }) embedding?: number[] | null;
}

@InputType('ForgetInput')
export class ForgetInput {
  @Field(() => ID) id!: string;
  @Field(() => ID, { description: 'Must repeat id: forgetting needs explicit consent.' }) confirmId!: string;
  @Field(() => String) reason!: string;
}
