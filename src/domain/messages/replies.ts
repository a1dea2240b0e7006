/**
 * The reply map: what the handler of each command and query answers. `Bus.handle` makes a handler return it and
 * `Bus.ask` hands it to the sender, so a handler that changes its answer breaks every caller at compile time.
 */
import type { AssociationRecord } from '../associations.js';
import type { MemoryEventRecord, MemoryRecord } from '../memory.js';
import type { ForgetOutcome, ShutdownFlush, Stored, SweepReport, TierMove } from '../outcomes.js';
import type { ContextPack, RecallResult, ReflectCandidateWithActions, UseRecord } from '../recall.js';
import type { DecisionRecord, SessionRecord } from '../sessions.js';
import type { Command } from './commands.js';
import type { Query } from './queries.js';

export type Asked = Command | Query;
export type AskedType = Asked['type'];

export interface Replies {
  readonly StoreCommand: Stored[];
  readonly ClaimCommand: MemoryRecord;
  readonly ReclassifyCommand: MemoryRecord;
  readonly ConsolidateCommand: MemoryRecord;
  readonly ForgetCommand: ForgetOutcome;
  readonly ShutdownCommand: ShutdownFlush;
  readonly AssociateCommand: AssociationRecord;
  readonly SweepDecay: SweepReport;
  /** The changes applied: one whose `from` no longer held is left out. */
  readonly TierChangeBatch: TierMove[];
  readonly SessionStart: SessionRecord;
  /** null when a timer's guarded end no longer applies. */
  readonly SessionEnd: SessionRecord | null;
  readonly StateTransition: SessionRecord;
  readonly LogDecision: DecisionRecord;
  /** The memory read (a read by id is an access). */
  readonly AccessCommand: MemoryRecord;
  readonly MarkUsedCommand: UseRecord;
  readonly ReportOutcomeCommand: UseRecord;
  readonly SearchQuery: RecallResult;
  readonly ContextQuery: ContextPack;
  readonly ReflectQuery: ReflectCandidateWithActions[];
  readonly MemoriesQuery: MemoryRecord[];
  readonly MemoryHistoryQuery: MemoryEventRecord[];
  readonly MemoryEventsQuery: MemoryEventRecord[];
  readonly ConsolidatedFromQuery: MemoryRecord[];
  readonly AssociationsOfQuery: AssociationRecord[];
  readonly NeighbourhoodOfQuery: AssociationRecord[];
}

export type ReplyOf<T extends AskedType> = Replies[T];

// The compiler keeps the map and the unions in step: an ask without a reply, or a reply for no ask, fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const REPLIES_MATCH_ASKS: Same<keyof Replies, AskedType> = true;
