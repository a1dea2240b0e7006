/** Lifecycle Port over GraphQL: startSession, transition, logDecision, endSession, session, sessions, resume. */
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root, UseMiddleware } from 'type-graphql';
import { trimIds } from './trim-ids.js';
import { DEFAULT_SESSIONS_LIMIT, type SessionEndCause, type WorkingMode } from '../../domain/index.js';
import type { SessionRecord } from '../../contexts/cortex/index.js';
import { JSONScalar } from './scalars.js';
import { SessionEndCauseEnum, WorkingModeEnum } from './enums.js';
import { DecisionType, ResumeType, SessionAuditType, SessionType, StartSessionInput } from './session-types.js';
import type { GraphQLContext } from './context.js';

/** Decisions a session lists when the caller names no limit, or names null. */
const DECISIONS_LIMIT = 100;

@Resolver(() => SessionType)
@UseMiddleware(trimIds)
export class SessionResolver {
  @Query(() => SessionType, {
    nullable: true,
    description: 'A session by id (a caller that names itself sees only its own).',
  })
  session(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.lifecycle.session(id, ctx.caller);
  }

  @Query(() => [SessionType], { description: "A store's sessions, newest first." })
  sessions(
    @Arg('store', () => String, { nullable: true }) store: string | null,
    @Arg('instanceId', () => String, { nullable: true }) instanceId: string | null,
    @Arg('limit', () => Int, { defaultValue: DEFAULT_SESSIONS_LIMIT, nullable: true }) limit: number | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.lifecycle.sessions(store, instanceId, limit ?? DEFAULT_SESSIONS_LIMIT, ctx.caller);
  }

  @Query(() => ResumeType, {
    description:
      'The newest session, the identity core and the active context: pick up where the last process stopped.',
  })
  resume(
    @Arg('store', () => String, { nullable: true }) store: string | null,
    @Arg('instanceId', () => String, { nullable: true }) instanceId: string | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.lifecycle.resume(store, instanceId, ctx.caller);
  }

  @Mutation(() => SessionType, {
    description: 'Opens a session for an instance; one still open from before ends with cause CRASH.',
  })
  startSession(@Arg('input', () => StartSessionInput) input: StartSessionInput, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.lifecycle.startSession(input, ctx.caller);
  }

  @Mutation(() => SessionType, {
    description: "Moves the instance's open session to a mode; task and context (the state) are kept when omitted.",
  })
  transition(
    @Arg('instanceId', () => String) instanceId: string,
    @Arg('mode', () => WorkingModeEnum) mode: WorkingMode,
    @Arg('task', () => String, { nullable: true }) task: string | null,
    @Arg('context', () => JSONScalar, { nullable: true }) context: unknown,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.lifecycle.transition(instanceId, mode, task, context, ctx.caller);
  }

  @Mutation(() => DecisionType, { description: "Logs a decision on the instance's open session." })
  logDecision(
    @Arg('instanceId', () => String) instanceId: string,
    @Arg('text', () => String) text: string,
    @Arg('rationale', () => String, { nullable: true }) rationale: string | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.lifecycle.logDecision(instanceId, text, rationale, ctx.caller);
  }

  @Mutation(() => SessionAuditType, { description: 'Ends the open session and asks what the mind refuses to lose.' })
  endSession(
    @Arg('instanceId', () => String) instanceId: string,
    @Arg('cause', () => SessionEndCauseEnum, { defaultValue: 'EXPLICIT', nullable: true }) cause: SessionEndCause,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.lifecycle.endSession(instanceId, cause ?? 'EXPLICIT', reason, ctx.caller);
  }

  // ── fields of Session ─────────────────────────────────────────────────────

  @FieldResolver(() => [DecisionType], { description: 'The newest decisions, in the order made.' })
  decisions(
    @Root() session: SessionRecord,
    @Arg('limit', () => Int, {
      defaultValue: DECISIONS_LIMIT,
      nullable: true,
      description: 'At most this many (1 to 100).',
    })
    limit: number | null,
    @Ctx() ctx: GraphQLContext,
  ) {
    return ctx.ports.lifecycle.decisions(session.id, limit ?? DECISIONS_LIMIT);
  }

  @FieldResolver(() => Int, { description: 'How many memories were stored in this session.' })
  memoriesStored(@Root() session: SessionRecord, @Ctx() ctx: GraphQLContext) {
    return ctx.ports.lifecycle.memoriesStored(session.id);
  }
}
