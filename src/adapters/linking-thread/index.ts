/** Synapse's mechanical linking on a worker thread of its own, with its own Neo4j driver. */
import { LINKING_NICE, type StartLinking, type SynapseSettings } from '../../contexts/synapse/index.js';
import type { Neo4jSettings } from '../neo4j/index.js';
import { LinkingThread } from './linking-thread.js';

/**
 * Synapse's `linkingThread`: each start is a thread on `neo4j`, niced by LINKING_NICE, that paces itself while the
 * serving thread's `activity` (RequestActivity.shared) says requests run.
 */
export function linkingThread(
  neo4j: Neo4jSettings,
  settings: SynapseSettings,
  activity: SharedArrayBuffer | null,
): StartLinking {
  return (onLinked) => new LinkingThread({ neo4j, settings, nice: LINKING_NICE, activity }, onLinked);
}
