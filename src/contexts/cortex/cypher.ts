import { declareStatements } from '../../domain/index.js';

export const Q = declareStatements('cortex', {
  startSession: 'start-session',
  endSession: 'end-session',
  transitionSession: 'transition-session',
  logDecision: 'log-decision',
  openSession: 'open-session',
  markSessionActive: 'mark-session-active',
  getSession: 'get-session',
  startedSession: 'started-session',
  sessionStores: 'session-stores',
  sessionKnown: 'session-known',
  sessionOfEvent: 'session-of-event',
  listSessions: 'list-sessions',
  sessionDecisions: 'session-decisions',
  sessionMemories: 'session-memories',
  tierMemberIds: 'tier-member-ids',
  recordNotification: 'record-notification',
  listNotifications: 'list-notifications',
  openReflection: 'open-reflection',
  getReflection: 'get-reflection',
  recordReflectionAnswer: 'record-reflection-answer',
});
