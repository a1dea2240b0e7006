/** The contract's enums, registered once from the domain's closed lists. */
import { registerEnumType } from 'type-graphql';
import {
  ASSOCIATION_DIRECTIONS,
  ASSOCIATION_ORIGINS,
  ASSOCIATION_TYPES,
  MERGE_STRATEGIES,
  NOTIFICATION_KINDS,
  OUTCOME_KINDS,
  REFLECTION_SCOPES,
  REFLECT_ACTION_KINDS,
  SESSION_END_CAUSES,
  TIERS,
  WORKING_MODES,
} from '../../domain/index.js';

const asEnum = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map((v) => [v, v])) as { [K in T]: K };

export const TierEnum = asEnum(TIERS);
export const AssociationTypeEnum = asEnum(ASSOCIATION_TYPES);
export const AssociationOriginEnum = asEnum(ASSOCIATION_ORIGINS);
export const AssociationDirectionEnum = asEnum(ASSOCIATION_DIRECTIONS);
export const MergeStrategyEnum = asEnum(MERGE_STRATEGIES);
export const ReflectionScopeEnum = asEnum(REFLECTION_SCOPES);
export const ReflectActionKindEnum = asEnum(REFLECT_ACTION_KINDS);
export const WorkingModeEnum = asEnum(WORKING_MODES);
export const SessionEndCauseEnum = asEnum(SESSION_END_CAUSES);
export const OutcomeKindEnum = asEnum(OUTCOME_KINDS);
export const NotificationKindEnum = asEnum(NOTIFICATION_KINDS);

registerEnumType(TierEnum, {
  name: 'Tier',
  description: 'Where a memory lives: identity core, active context, long term, archive.',
});
registerEnumType(AssociationTypeEnum, { name: 'AssociationType' });
registerEnumType(AssociationOriginEnum, { name: 'AssociationOrigin' });
registerEnumType(AssociationDirectionEnum, { name: 'AssociationDirection' });
registerEnumType(MergeStrategyEnum, { name: 'MergeStrategy' });
registerEnumType(ReflectionScopeEnum, { name: 'ReflectionScope' });
registerEnumType(ReflectActionKindEnum, {
  name: 'ReflectActionKind',
  description: 'An answer to a reflect candidate; KEEP leaves it as it is.',
});
registerEnumType(WorkingModeEnum, { name: 'WorkingMode' });
registerEnumType(SessionEndCauseEnum, { name: 'SessionEndCause' });
registerEnumType(OutcomeKindEnum, { name: 'OutcomeKind' });
registerEnumType(NotificationKindEnum, { name: 'NotificationKind' });
