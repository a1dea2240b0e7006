/** The Subconscious's settings: its schedules, its queues' retries, and the stores it looks after. */
import { settings } from '../../domain/index.js';

const MINUTE = 60_000;
const ms = (value: number, words: string) => ({ default: value, unit: 'ms', shown: `\`${value}\` (${words})` });

export const SUBCONSCIOUS_SETTINGS = {
  queuePrefix: settings.text('TOTAL_RECALL_QUEUE_PREFIX', {
    default: 'total-recall',
    description: 'prefix of every BullMQ queue and Redis key of this deployment (tests use a random one)',
  }),
  scopeStores: settings.list('TOTAL_RECALL_SCOPE_STORES', {
    shown: 'empty (every store)',
    description: 'the stores this process sweeps, consolidates, times out and writes to cold storage',
  }),
  decaySweepMs: settings.integer('TOTAL_RECALL_DECAY_SWEEP_MS', {
    ...ms(15 * MINUTE, '15 min'),
    description: 'period of the decay sweep (SweepDecay to Salience)',
  }),
  consolidationMs: settings.integer('TOTAL_RECALL_CONSOLIDATION_MS', {
    ...ms(60 * MINUTE, '1 h'),
    description: 'how often consolidation looks for quiet stores',
  }),
  quietMs: settings.integer('TOTAL_RECALL_QUIET_MS', {
    ...ms(10 * MINUTE, '10 min'),
    description: 'a store is quiet (consolidation may run) after this long without recorded activity',
  }),
  consolidationMinSimilarity: settings.decimal('TOTAL_RECALL_CONSOLIDATION_MIN_SIMILARITY', {
    default: 0.9,
    min: 0,
    max: 1,
    above: true,
    description:
      "Synapse's THEMATIC text score (share of weighted terms in common) from which two memories count as " +
      'near-duplicates; only mechanical links count',
  }),
  consolidationMaxClusters: settings.integer('TOTAL_RECALL_CONSOLIDATION_MAX_CLUSTERS', {
    default: 50,
    description: 'most consolidations per run',
  }),
  breakAfterMs: settings.integer('TOTAL_RECALL_BREAK_AFTER_MS', {
    ...ms(90 * MINUTE, '90 min'),
    description: 'sustained TASK mode before a break notification (then again every period)',
  }),
  sessionIdleMs: settings.integer('TOTAL_RECALL_SESSION_IDLE_MS', {
    ...ms(60 * MINUTE, '1 h'),
    description: 'an open session with no call for this long ends with cause TIMEOUT',
  }),
  sessionSweepMs: settings.integer('TOTAL_RECALL_SESSION_SWEEP_MS', {
    default: MINUTE,
    unit: 'ms',
    description: 'period of the session sweep (timeouts, lost break timers, missing audits)',
  }),
  coldStorageFullMs: settings.integer('TOTAL_RECALL_COLD_STORAGE_FULL_MS', {
    ...ms(24 * 60 * MINUTE, '24 h'),
    description:
      'how often the background writes a full cold-storage export, from the chain of deltas since the last one ' +
      '([cold storage](docs/cold-storage.md))',
  }),
  coldStorageCheckpointMs: settings.integer('TOTAL_RECALL_COLD_STORAGE_CHECKPOINT_MS', {
    ...ms(60 * MINUTE, '1 h'),
    min: 0,
    description:
      'how often the background writes and checks a cold-storage export while the service runs (a delta, or the ' +
      'first full export), so that a shutdown writes only what changed since; 0: never, only shutdown exports ' +
      '([cold storage](docs/cold-storage.md))',
  }),
  reconcileMs: settings.integer('TOTAL_RECALL_RECONCILE_MS', {
    default: MINUTE,
    unit: 'ms',
    description: 'period of the [reconciliation](#what-a-crash-can-cost)',
  }),
  reconcileGraceMs: settings.integer('TOTAL_RECALL_RECONCILE_GRACE_MS', {
    default: 30_000,
    unit: 'ms',
    description: 'how old unfinished work must be before the reconciliation queues it again',
  }),
  jobAttempts: settings.integer('TOTAL_RECALL_JOB_ATTEMPTS', {
    default: 5,
    description: 'tries of a failed background job (sweeps, consolidation, session timers)',
  }),
  jobBackoffMs: settings.integer('TOTAL_RECALL_JOB_BACKOFF_MS', {
    default: 1000,
    unit: 'ms',
    description: "first delay before a failed job's next try (then doubling)",
  }),
  jobLockMs: settings.integer('TOTAL_RECALL_JOB_LOCK_MS', {
    default: 30_000,
    unit: 'ms',
    description: 'a job whose worker died is taken over after its lock expires',
  }),
  stalledIntervalMs: settings.integer('TOTAL_RECALL_STALLED_INTERVAL_MS', {
    default: 30_000,
    unit: 'ms',
    description: 'how often expired job locks are looked for',
  }),
  drainTimeoutMs: settings.integer('TOTAL_RECALL_DRAIN_TIMEOUT_MS', {
    default: 30_000,
    unit: 'ms',
    description: 'how long shutdown lets the workers finish due jobs',
  }),
} as const;

export type SubconsciousConfig = settings.SettingsOf<typeof SUBCONSCIOUS_SETTINGS>;

export const subconsciousSettingsFromEnv = (env: NodeJS.ProcessEnv): SubconsciousConfig =>
  settings.readSettings(SUBCONSCIOUS_SETTINGS, env);
