/** Synapse's settings (declared here; the README's table is generated from them) and its input checks. */
import { ASSOCIATION_TYPES, InvalidInputError, settings, type AssociationType } from '../../domain/index.js';

export interface SynapseSettings {
  /** Off: MemoryStored makes no links (the benchmark's baseline). */
  readonly mechanicalLinking: boolean;
  /** Link on a worker thread of its own (off: on the thread that stores). */
  readonly linkingThread: boolean;
  readonly temporalWindowMs: number;
  /** New mechanical links per stored memory and type. */
  readonly linksPerType: number;
  /** No mechanical link to or from a memory with this many links of the type. */
  readonly maxDegree: number;
  readonly thematicThreshold: number;
  /** A store's planned links are written together, one write at most this often (ms). */
  readonly linkWriteMs: number;
  /** How many of a store's newest memories are checked for a shared person or emotion. */
  readonly recentWindow: number;
  /** Share of the time mechanical linking may take while requests run (Pacer); 1: it never waits. */
  readonly busyShare: number;
  /** A claim strengthens each of the memory's links by this step. */
  readonly claimBoost: number;
  readonly hopDecay: number;
  readonly maxActivatedNodes: number;
}

const MINUTE = 60_000;

/** One variable per setting. */
export const SYNAPSE_SETTINGS = {
  mechanicalLinking: settings.flag('TOTAL_RECALL_SYNAPSE_MECHANICAL', {
    default: true,
    description: '`off`: storing makes no mechanical associations ([docs/synapse.md](docs/synapse.md))',
  }),
  linkingThread: settings.flag('TOTAL_RECALL_SYNAPSE_THREAD', {
    default: true,
    description:
      '`off`: mechanical linking runs on the thread that serves requests instead of its own lower-priority ' +
      'worker thread',
  }),
  temporalWindowMs: settings.integer('TOTAL_RECALL_SYNAPSE_TEMPORAL_WINDOW_MS', {
    default: 30 * MINUTE,
    unit: 'ms',
    shown: '`1800000` (30 min)',
    description: 'TEMPORAL links join memories of one session at most this far apart',
  }),
  linksPerType: settings.integer('TOTAL_RECALL_SYNAPSE_LINKS_PER_TYPE', {
    default: 5,
    description: 'most new mechanical links per stored memory and type',
  }),
  maxDegree: settings.integer('TOTAL_RECALL_SYNAPSE_MAX_DEGREE', {
    default: 50,
    description: 'no mechanical link to or from a memory that has this many links of the type',
  }),
  thematicThreshold: settings.decimal('TOTAL_RECALL_SYNAPSE_THEMATIC_THRESHOLD', {
    default: 0.2,
    min: 0,
    max: 1,
    above: true,
    description: "least IDF-weighted overlap (BM25 against the memory's own) for a THEMATIC link",
  }),
  linkWriteMs: settings.integer('TOTAL_RECALL_SYNAPSE_LINK_WRITE_MS', {
    default: 50,
    unit: 'ms',
    description: "a store's planned mechanical links are written together, one write at most this often",
  }),
  recentWindow: settings.integer('TOTAL_RECALL_SYNAPSE_RECENT_WINDOW', {
    default: 100,
    unit: 'memories',
    description: 'newest memories of the store checked for a shared person or emotion',
  }),
  busyShare: settings.decimal('TOTAL_RECALL_SYNAPSE_BUSY_SHARE', {
    default: 0.2,
    min: 0,
    max: 1,
    above: true,
    description:
      'while requests run, mechanical linking takes at most this share of the time: after a batch of t ms it waits ' +
      'up to t × (1 − share) / share, or until requests stop, and catches up after (`1`: it never waits; ' +
      '[write path](docs/write-path.md))',
  }),
  claimBoost: settings.decimal('TOTAL_RECALL_SYNAPSE_CLAIM_BOOST', {
    default: 0.1,
    min: 0,
    max: 1,
    above: true,
    description: "a claim strengthens each of the memory's links by this share of the gap to 1",
  }),
  hopDecay: settings.decimal('TOTAL_RECALL_SYNAPSE_HOP_DECAY', {
    default: 0.5,
    min: 0,
    max: 1,
    above: true,
    description: "spreading activation's factor per hop after the first",
  }),
  maxActivatedNodes: settings.integer('TOTAL_RECALL_SYNAPSE_MAX_NODES', {
    default: 500,
    unit: 'memories',
    description: 'most memories one spreading activation visits',
  }),
} as const;

export const synapseSettingsFromEnv = (env: NodeJS.ProcessEnv): SynapseSettings =>
  settings.readSettings(SYNAPSE_SETTINGS, env);

/** Full-text candidates per query (thematic, people). */
export const TEXT_CANDIDATES = 15;
/** Stored memories linked per statement; more wait for the next batch. */
export const LINK_BATCH = 100;
/** The linking thread runs this much nicer than the service (Linux nice values: 10 of 19). */
export const LINKING_NICE = 10;
/** Links read per memory and hop when spreading activation (strongest first). */
export const ACTIVATION_PER_NODE = 24;
/** Memories that pass activation on at each hop. */
export const ACTIVATION_FRONTIER = 32;
/** Shares below this fraction of the strongest seed are not passed on. */
export const ACTIVATION_MIN_SHARE = 0.001;
export const MAX_DEPTH = 3;
export const MAX_LIMIT = 1000;

const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new InvalidInputError(`SYNAPSE.${code}`, message, details);

export function isAssociationType(value: unknown): value is AssociationType {
  return typeof value === 'string' && (ASSOCIATION_TYPES as readonly string[]).includes(value);
}

/** The types to follow: all five when none are named. */
export function validateTypes(types: readonly string[] | null | undefined): AssociationType[] {
  if (types === null || types === undefined || types.length === 0) return [...ASSOCIATION_TYPES];
  for (const t of types) if (!isAssociationType(t)) throw invalid('UNKNOWN_TYPE', `unknown association type "${t}"`);
  return [...new Set(types)] as AssociationType[];
}

export function validateDepth(depth: number, what = 'depth'): number {
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH)
    throw invalid('INVALID_DEPTH', `${what} must be an integer from 1 to ${MAX_DEPTH}, got ${depth}`);
  return depth;
}

export function validateLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw invalid('INVALID_LIMIT', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  return limit;
}

export function validateMinStrength(value: number | null | undefined): number {
  if (value === null || value === undefined) return 0;
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw invalid('INVALID_STRENGTH', `minStrength must be in [0, 1], got ${value}`);
  return value;
}
