/**
 * The associations half of the Memory Port: the mind's semantic links go to
 * Synapse as AssociateCommand; reads (a memory's links, a neighbourhood) ask
 * Synapse for ids and Hippocampus for the memories at the other ends, in one
 * batch per call.
 */
import { admit } from './admission.js';
import {
  isStoreBound,
  mayReach,
  reachOf,
  requireWrite,
  type AssociationDirection,
  type AssociationType,
  type Bus,
  type MemoryRecord,
} from '../../domain/index.js';
import { associationsOf, memoriesById, memoryById, neighbourhoodOf } from './memory-queries.js';
import type { AssociationRecord, AssociationsQuery, NeighbourhoodQuery } from '../../domain/index.js';
import { checkCallerSession, type Caller, type SessionStores } from './memory-port.js';

/** An association with the memory at its other end. */
export type AssociationView = Omit<AssociationRecord, 'other'> & { readonly other: MemoryRecord };

export interface AssociateArgs {
  readonly a: string;
  readonly b: string;
  readonly type: AssociationType;
  readonly direction?: AssociationDirection | null;
  readonly strength?: number | null;
}

export interface AssociationPortDeps {
  readonly bus: Bus;
  readonly accepting: () => boolean;
  /** Cortex's sessions: a session the caller names must be of a store it may reach. */
  readonly sessions?: SessionStores;
}

export class AssociationPort {
  constructor(private readonly deps: AssociationPortDeps) {}

  async associate(args: AssociateArgs, caller: Caller): Promise<AssociationView> {
    admit(this.deps.accepting);
    requireWrite(caller.access);
    await checkCallerSession(this.deps.sessions, caller);
    // Synapse answers a memory out of the caller's reach exactly as an unknown one (same code, message, details).
    const command = this.deps.bus.message(
      'AssociateCommand',
      {
        a: args.a,
        b: args.b,
        type: args.type,
        direction: args.direction ?? 'CREATE',
        strength: args.strength ?? null,
        reach: reachOf(caller.access),
      },
      'cortex',
      { instanceId: caller.instanceId, sessionId: caller.sessionId, correlationId: caller.correlationId },
    );
    const [view] = await this.withMemories([await this.deps.bus.ask(command)]);
    return view as AssociationView;
  }

  async of(id: string, query: AssociationsQuery): Promise<AssociationView[]> {
    return this.withMemories(await associationsOf(this.deps.bus, { id, ...query }));
  }

  /** A memory of a store the caller may not reach has no neighbourhood it can see. */
  async neighbourhood(id: string, query: NeighbourhoodQuery, caller: Caller): Promise<AssociationView[]> {
    if (isStoreBound(caller.access)) {
      const root = await memoryById(this.deps.bus, id);
      if (!root || !mayReach(caller.access, root.store)) return [];
    }
    return this.withMemories(await neighbourhoodOf(this.deps.bus, { id, ...query }));
  }

  /** A memory forgotten between the two reads simply drops out. */
  private async withMemories(records: readonly AssociationRecord[]): Promise<AssociationView[]> {
    const memories = new Map(
      (await memoriesById(this.deps.bus, [...new Set(records.map((r) => r.other))])).map((m) => [m.id, m]),
    );
    return records.flatMap((r) => {
      const other = memories.get(r.other);
      return other ? [{ ...r, other }] : [];
    });
  }
}
