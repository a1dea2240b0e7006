/** GraphQL types of progress in health: long operations (health.progress) and embeddings per store. */
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { ProgressOperation } from '../../domain/index.js';
import { DateTimeScalar } from './scalars.js';

@ObjectType('Progress', {
  description: 'How far a long operation of this process got (import, export, backfill, sweep, consolidation, index).',
})
export class ProgressType {
  @Field(() => ID) id!: string;
  @Field(() => String, {
    description: 'import, export, backfill, sweep, consolidation or index (Neo4j building an index).',
  })
  operation!: ProgressOperation;
  @Field(() => String, {
    nullable: true,
    description: 'The store (or stores) it works on; null: every store in scope.',
  })
  store!: string | null;
  @Field(() => Float) done!: number;
  @Field(() => Float, { nullable: true, description: 'Null while not known.' }) total!: number | null;
  @Field(() => Float, { nullable: true, description: 'done / total in [0,1]; null while the total is not known.' })
  share!: number | null;
  @Field(() => String, { description: 'What done counts.' }) unit!: string;
  @Field(() => DateTimeScalar) startedAt!: number;
  @Field(() => DateTimeScalar) updatedAt!: number;
  @Field(() => DateTimeScalar, { nullable: true }) finishedAt!: number | null;
  @Field(() => Boolean) failed!: boolean;
}

@ObjectType('StoreEmbeddings', {
  description: 'How far embedding has come in one store: recall by meaning covers the done ones.',
})
export class StoreEmbeddingsType {
  @Field(() => String) store!: string;
  @Field(() => Int, { description: 'Waiting for their embedding (found by their words meanwhile).' }) pending!: number;
  @Field(() => Int, { description: 'Whose embedding failed after its retries (the reconciliation tries them again).' })
  failed!: number;
  @Field(() => Int, { description: 'Neither waiting nor failed: embedded, or given a vector by the client.' })
  done!: number;
  @Field(() => Int) total!: number;
}
