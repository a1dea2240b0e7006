/** GraphQL types of the Lifecycle Port: sessions, decisions, audits, resume, notifications, shutdown. */
import { Field, Float, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { NotificationKind, SessionEndCause, WorkingMode } from '../../domain/index.js';
import { DateTimeScalar, JSONScalar } from './scalars.js';
import { NotificationKindEnum, SessionEndCauseEnum, WorkingModeEnum } from './enums.js';
import { MemoryType } from './memory-types.js';

@ObjectType('Decision', { description: 'A decision the mind logged in a session.' })
export class DecisionType {
  @Field(() => ID) id!: string;
  @Field(() => String) text!: string;
  @Field(() => String, { nullable: true }) rationale!: string | null;
  @Field(() => DateTimeScalar) at!: number;
}

@ObjectType('Session', { description: "One instance's working state: mode, task, state and decisions." })
export class SessionType {
  @Field(() => ID) id!: string;
  @Field(() => String) store!: string;
  @Field(() => String) instanceId!: string;
  @Field(() => String) mindType!: string;
  @Field(() => WorkingModeEnum) mode!: WorkingMode;
  @Field(() => DateTimeScalar, { description: 'When the current mode was entered (the break clock starts here).' })
  modeSince!: number;
  @Field(() => String, { nullable: true }) task!: string | null;
  @Field(() => String, { nullable: true }) project!: string | null;
  @Field(() => JSONScalar, { nullable: true }) state!: unknown;
  @Field(() => DateTimeScalar) startedAt!: number;
  @Field(() => DateTimeScalar) lastActiveAt!: number;
  @Field(() => DateTimeScalar, { nullable: true }) endedAt!: number | null;
  @Field(() => SessionEndCauseEnum, { nullable: true }) endCause!: SessionEndCause | null;
  @Field(() => String, { nullable: true }) endReason!: string | null;
  @Field(() => Int, { description: 'How many decisions the session holds in all; decisions(limit) lists the newest.' })
  decisionsMade!: number;
}

@ObjectType('SessionAudit', { description: 'Asked at the end of a session: what do you refuse to lose?' })
export class SessionAuditType {
  @Field(() => SessionType) session!: SessionType;
  @Field(() => String) prompt!: string;
  @Field(() => Int) memoriesStored!: number;
  @Field(() => [MemoryType], { description: "This session's memories that will fade unless claimed." })
  unclaimed!: MemoryType[];
}

@ObjectType('Resume', { description: 'What a new process needs to pick up where the last one stopped.' })
export class ResumeType {
  @Field(() => SessionType, {
    nullable: true,
    description: 'The newest session of this store (and instance, if given).',
  })
  session!: SessionType | null;
  @Field(() => [MemoryType], { description: 'IDENTITY_CORE, newest first.' }) identity!: MemoryType[];
  @Field(() => [MemoryType], { description: 'ACTIVE_CONTEXT, newest first.' }) activeContext!: MemoryType[];
}

@ObjectType('Notification', {
  description: 'Something the Subconscious tells a mind; kept, so a mind that was away can poll it.',
})
export class NotificationType {
  @Field(() => ID) id!: string;
  @Field(() => NotificationKindEnum) kind!: NotificationKind;
  @Field(() => String, { nullable: true }) instanceId!: string | null;
  @Field(() => ID, { nullable: true }) sessionId!: string | null;
  @Field(() => String) message!: string;
  @Field(() => DateTimeScalar) at!: number;
  @Field(() => JSONScalar, { nullable: true }) payload!: unknown;
}

@ObjectType('ShutdownReport', { description: 'The shutdown protocol, step by step.' })
export class ShutdownReportType {
  @Field(() => Boolean) ready!: boolean;
  @Field(() => Int) memories!: number;
  @Field(() => String) coldStoragePath!: string;
  @Field(() => Boolean) verified!: boolean;
  @Field(() => [String]) steps!: string[];
}

@ObjectType('JobRun', { description: "A background job's last run." })
export class JobRunType {
  @Field(() => ID) jobId!: string;
  @Field(() => DateTimeScalar, { description: 'When it finished.' }) at!: number;
  @Field(() => Boolean) ok!: boolean;
  @Field(() => Float) durationMs!: number;
  @Field(() => Float, { description: 'How late it started after it fell due.' }) lagMs!: number;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => JSONScalar, { nullable: true }) result!: unknown;
}

@ObjectType('QueueStatus', { description: 'One background queue: its depths, its schedule and its last run.' })
export class QueueStatusType {
  @Field(() => String) name!: string;
  @Field(() => Int) waiting!: number;
  @Field(() => Int) active!: number;
  @Field(() => Int) delayed!: number;
  @Field(() => Int) failed!: number;
  @Field(() => Int) completed!: number;
  @Field(() => Float, { nullable: true, description: 'The period of its job scheduler, for the periodic sweeps.' })
  everyMs!: number | null;
  @Field(() => JobRunType, { nullable: true }) lastRun!: JobRunType | null;
}

@InputType('StartSessionInput')
export class StartSessionInput {
  @Field(() => ID, {
    nullable: true,
    description:
      'Client-chosen: a retry with the same arguments is a no-op; the same id with other arguments is ' +
      'CORTEX.ID_CONFLICT.',
  })
  id?: string | null;
  @Field(() => String) instanceId!: string;
  @Field(() => String) mindType!: string;
  @Field(() => String, { nullable: true }) store?: string | null;
  @Field(() => String, { nullable: true }) task?: string | null;
  @Field(() => String, { nullable: true }) project?: string | null;
}
