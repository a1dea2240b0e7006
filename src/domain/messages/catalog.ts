/**
 * The message catalog as data: every message type, who handles or publishes it, and who consumes it. It is keyed
 * by every type of the unions, and each entry's kind is checked against the union the type belongs to, so the
 * compiler keeps it complete and true to the types.
 */
import type { Command, TierChange } from './commands.js';
import type { ContextName } from './envelope.js';
import type { Event } from './events.js';
import type { Notification } from './notifications.js';
import type { Query } from './queries.js';

type AnyType = (Command | Query | Event | Notification | TierChange)['type'];

/** `part`: a message that is never sent alone but travels inside another (a tier change in a TierChangeBatch). */
export type MessageKind = 'command' | 'query' | 'event' | 'notification' | 'part';

type KindOf<T extends AnyType> = T extends Command['type']
  ? 'command'
  : T extends Query['type']
    ? 'query'
    : T extends Event['type']
      ? 'event'
      : T extends Notification['type']
        ? 'notification'
        : 'part';

/** A command or query: one handler answers it. */
export interface AskedEntry<K extends MessageKind = 'command' | 'query'> {
  readonly kind: K;
  readonly handler: ContextName;
  readonly askedBy: readonly (ContextName | 'outside')[];
}

/** An event or notification: its subscribers, or, with none, why it is published at all. */
export type PublishedEntry<K extends MessageKind = 'event' | 'notification'> = {
  readonly kind: K;
  readonly publishedBy: readonly ContextName[];
} & (
  | { readonly subscribers: readonly [ContextName, ...ContextName[]]; readonly why?: string }
  | { readonly subscribers: readonly []; readonly why: string }
);

/** A part of another message: handled as part of it. */
export interface PartEntry {
  readonly kind: 'part';
  readonly partOf: Command['type'];
}

export type AnyCatalogEntry = AskedEntry | PublishedEntry | PartEntry;

export type CatalogEntry<T extends AnyType> =
  KindOf<T> extends 'command' | 'query'
    ? AskedEntry<KindOf<T>>
    : KindOf<T> extends 'part'
      ? PartEntry
      : PublishedEntry<KindOf<T>>;

/** Why an event nobody subscribes to is still published: it is the audit trail's event, live. */
const AUDIT =
  'audit: the bus copy of the trail event written with it (same id), for taps that watch the trail live ' +
  '(the debug log, TOTAL_RECALL_LOG_LEVEL=debug; tests); no context needs it';

export const MESSAGE_CATALOG = {
  // ── commands ──
  StoreCommand: { kind: 'command', handler: 'hippocampus', askedBy: ['cortex'] },
  ClaimCommand: { kind: 'command', handler: 'hippocampus', askedBy: ['cortex'] },
  ReclassifyCommand: { kind: 'command', handler: 'hippocampus', askedBy: ['cortex'] },
  ConsolidateCommand: { kind: 'command', handler: 'hippocampus', askedBy: ['cortex', 'subconscious'] },
  ForgetCommand: { kind: 'command', handler: 'hippocampus', askedBy: ['cortex'] },
  ShutdownCommand: { kind: 'command', handler: 'hippocampus', askedBy: ['subconscious'] },
  AssociateCommand: { kind: 'command', handler: 'synapse', askedBy: ['cortex'] },
  SweepDecay: { kind: 'command', handler: 'salience', askedBy: ['subconscious', 'outside'] },
  TierChangeBatch: { kind: 'command', handler: 'hippocampus', askedBy: ['salience'] },
  PromoteTier: { kind: 'part', partOf: 'TierChangeBatch' },
  DemoteTier: { kind: 'part', partOf: 'TierChangeBatch' },
  SessionStart: { kind: 'command', handler: 'cortex', askedBy: ['cortex'] },
  SessionEnd: { kind: 'command', handler: 'cortex', askedBy: ['cortex', 'subconscious'] },
  StateTransition: { kind: 'command', handler: 'cortex', askedBy: ['cortex'] },
  LogDecision: { kind: 'command', handler: 'cortex', askedBy: ['cortex'] },
  AccessCommand: { kind: 'command', handler: 'hippocampus', askedBy: ['cortex'] },
  MarkUsedCommand: { kind: 'command', handler: 'recall', askedBy: ['cortex'] },
  ReportOutcomeCommand: { kind: 'command', handler: 'recall', askedBy: ['cortex'] },
  // ── queries ──
  SearchQuery: { kind: 'query', handler: 'recall', askedBy: ['cortex'] },
  ContextQuery: { kind: 'query', handler: 'recall', askedBy: ['cortex'] },
  ReflectQuery: { kind: 'query', handler: 'recall', askedBy: ['cortex'] },
  MemoriesQuery: { kind: 'query', handler: 'hippocampus', askedBy: ['cortex'] },
  MemoryHistoryQuery: { kind: 'query', handler: 'hippocampus', askedBy: ['cortex'] },
  MemoryEventsQuery: { kind: 'query', handler: 'hippocampus', askedBy: ['cortex'] },
  ConsolidatedFromQuery: { kind: 'query', handler: 'hippocampus', askedBy: ['cortex'] },
  AssociationsOfQuery: { kind: 'query', handler: 'synapse', askedBy: ['cortex'] },
  NeighbourhoodOfQuery: { kind: 'query', handler: 'synapse', askedBy: ['cortex'] },
  // ── events ──
  MemoryStored: {
    kind: 'event',
    publishedBy: ['hippocampus'],
    // subconscious: the embedding queue asks for the new memory's vector.
    subscribers: ['recall', 'synapse', 'subconscious'],
  },
  MemoryAccessed: { kind: 'event', publishedBy: ['hippocampus'], subscribers: ['salience'] },
  MemoryClaimed: { kind: 'event', publishedBy: ['hippocampus'], subscribers: ['synapse', 'salience'] },
  MemoryRetrieved: { kind: 'event', publishedBy: ['recall'], subscribers: [], why: AUDIT },
  TierChanged: { kind: 'event', publishedBy: ['hippocampus'], subscribers: ['salience'] },
  MemoryReclassified: { kind: 'event', publishedBy: ['hippocampus'], subscribers: [], why: AUDIT },
  MemoryForgotten: { kind: 'event', publishedBy: ['hippocampus'], subscribers: ['recall', 'subconscious'] },
  MemoryConsolidated: { kind: 'event', publishedBy: ['hippocampus'], subscribers: [], why: AUDIT },
  MemoryUsed: { kind: 'event', publishedBy: ['recall'], subscribers: ['salience'] },
  OutcomeReported: { kind: 'event', publishedBy: ['recall'], subscribers: ['salience'] },
  MemoriesEmbedded: { kind: 'event', publishedBy: ['hippocampus'], subscribers: ['recall'] },
  MemoriesLinked: { kind: 'event', publishedBy: ['synapse'], subscribers: ['hippocampus'] },
  AssociationsFound: {
    kind: 'event',
    publishedBy: ['synapse'],
    subscribers: [],
    why:
      'audit: links write no Event node (docs/synapse.md), so this report of each written batch is their trail ' +
      'for taps; no context needs it',
  },
  SessionStarted: { kind: 'event', publishedBy: ['cortex'], subscribers: [], why: AUDIT },
  SessionEnded: { kind: 'event', publishedBy: ['cortex'], subscribers: ['salience', 'subconscious'] },
  ModeChanged: { kind: 'event', publishedBy: ['cortex'], subscribers: ['subconscious'] },
  StateTransitioned: { kind: 'event', publishedBy: ['cortex'], subscribers: [], why: AUDIT },
  DecisionLogged: { kind: 'event', publishedBy: ['cortex'], subscribers: [], why: AUDIT },
  ReflectionStarted: { kind: 'event', publishedBy: ['cortex'], subscribers: [], why: AUDIT },
  ReflectionAnswered: { kind: 'event', publishedBy: ['cortex'], subscribers: [], why: AUDIT },
  // ── notifications ──
  BreakNotification: {
    kind: 'notification',
    publishedBy: ['cortex'],
    subscribers: [],
    why:
      "to clients: the Subconscious hands it to Cortex's notification inbox, which stores it, publishes it on " +
      'the bus once (for taps) and relays it to subscribed clients over Redis',
  },
  SessionAuditPrompt: {
    kind: 'notification',
    publishedBy: ['cortex'],
    subscribers: [],
    why:
      "to clients: the Subconscious hands it to Cortex's notification inbox, which stores it, publishes it on " +
      'the bus once (for taps) and relays it to subscribed clients over Redis',
  },
} as const satisfies { readonly [T in AnyType]: CatalogEntry<T> };

/** The message types of one kind, in catalog order. */
export function messageTypes(kind: MessageKind): AnyType[] {
  return (Object.keys(MESSAGE_CATALOG) as AnyType[]).filter((type) => MESSAGE_CATALOG[type].kind === kind);
}
