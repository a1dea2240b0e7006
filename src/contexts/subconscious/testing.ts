/** The Subconscious's rules and job ids, for tests only (production code may not import this file). */
export { clusters } from './clusters.js';
export { breakCheckApplies, breakDueAt, idleBefore, isQuiet, minutesInTask, nextBreakCheck } from './timers.js';
export { auditJobId, auditNotificationId, breakJobId, breakNotificationId } from './jobs.js';
