/** GraphQL object and input types for associations. */
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { AssociationDirection, AssociationOrigin, AssociationType, MemoryRecord } from '../../domain/index.js';
import { DateTimeScalar } from './scalars.js';
import { AssociationDirectionEnum, AssociationOriginEnum, AssociationTypeEnum } from './enums.js';
import { MemoryType } from './memory-types.js';

@ObjectType('Association', { description: 'A typed link between two memories, the same from either end.' })
export class AssociationObject {
  @Field(() => AssociationTypeEnum) type!: AssociationType;
  @Field(() => AssociationOriginEnum, {
    description: 'MECHANICAL (made by Synapse from metadata) or SEMANTIC (made by the mind).',
  })
  origin!: AssociationOrigin;
  @Field(() => Float, { description: 'In (0,1].' }) strength!: number;
  @Field(() => MemoryType, { description: 'The memory at the other end, seen from the asking side.' })
  other!: MemoryRecord;
  @Field(() => DateTimeScalar) createdAt!: number;
  @Field(() => DateTimeScalar) updatedAt!: number;
  @Field(() => ID, { description: 'The memory this association is seen from.' }) seenFrom!: string;
  @Field(() => Int, {
    description: '1 for a direct link; in a neighbourhood, the distance of the nearer end plus one.',
  })
  hop!: number;
}

@InputType('AssociateInput')
export class AssociateInput {
  @Field(() => ID) a!: string;
  @Field(() => ID) b!: string;
  @Field(() => AssociationTypeEnum) type!: AssociationType;
  @Field(() => AssociationDirectionEnum, { nullable: true, defaultValue: 'CREATE' })
  direction?: AssociationDirection | null;
  @Field(() => Float, {
    nullable: true,
    description:
      'CREATE: the strength in (0,1] (default 0.6). STRENGTHEN / WEAKEN: the step in (0,1], the share of the ' +
      'distance to 1 (or to 0) moved (default 0.2).',
  })
  strength?: number | null;
}
