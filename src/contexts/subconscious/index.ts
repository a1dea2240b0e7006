/** The subconscious context: timers and background jobs, the shutdown protocol (docs/architecture.md). */
export { Subconscious } from './subconscious.js';
export type { NotificationPort, Reconciler, SubconsciousDeps, SubconsciousSettings } from './subconscious.js';
export { ShutdownProtocol } from './shutdown.js';
export type { ColdStorageCheck, ColdStoragePort, ColdStorageWrite, ShutdownDeps, ShutdownReport } from './shutdown.js';
export type { SessionTimerView } from './timers.js';
export { JOB_KINDS, SCHEDULED_KINDS } from './jobs.js';
export type {
  BreakCheckData,
  DecaySweepData,
  DrainReport,
  JobDataOf,
  JobKind,
  JobPort,
  JobRun,
  LastRun,
  QueueStatus,
  ScheduledKind,
  SessionAuditData,
  TimerKind,
} from './jobs.js';
export { SUBCONSCIOUS_SETTINGS, subconsciousSettingsFromEnv } from './settings.js';
export type { SubconsciousConfig } from './settings.js';
