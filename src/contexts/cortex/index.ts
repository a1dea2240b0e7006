export { MemoryPort, RequestScope } from './memory-port.js';
export type { Caller, MemoryPortDeps } from './memory-port.js';
export { RecallPort } from './recall-port.js';
export type { SearchArgs, ContextArgs, RecallPortDeps } from './recall-port.js';
export { AssociationPort } from './association-port.js';
export type { AssociationView, AssociateArgs, AssociationPortDeps } from './association-port.js';
export { Sessions } from './sessions.js';
export type { SessionsDeps, SessionMemories } from './sessions.js';
export { LifecyclePort } from './lifecycle-port.js';
export type { LifecyclePortDeps, StartSessionArgs, SessionAudit, ResumeState } from './lifecycle-port.js';
export { NotificationInbox } from './notification-inbox.js';
export type { LiveChannel, NotificationInboxDeps } from './notification-inbox.js';
export type { SessionRecord, DecisionRecord, NotificationRecord } from './session-records.js';
export { asInstance } from './session-rules.js';
export { ReflectionPort } from './reflection-port.js';
export type { ReflectionPortDeps, OpenReflectionArgs, ReflectionAnswered } from './reflection-port.js';
export type {
  ReflectionView,
  ReflectionRecord,
  ReflectionAnswerRecord,
  ReflectAnswerArgs,
  OfferedCandidate,
  OfferedAction,
} from './reflection-records.js';
export { reflectPrompt, reflectPromptText } from './reflection-prompt.js';
export type { ReflectPrompt, ReflectPromptOptions, PromptMessage } from './reflection-prompt.js';
