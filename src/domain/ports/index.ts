/** Ports: what the contexts need from the outside world, implemented by src/adapters. */
export type { GraphPort, Tx, Params, Row } from './graph.js';
export { declareStatements, declaredFiles } from './statements.js';
export type { Statement } from './statements.js';
export { failingFast, inBackground, isFailingFast } from './call-mode.js';
