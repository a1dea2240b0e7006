/**
 * The linking thread: Synapse's mechanical linking (its LinkPipeline) with its own
 * Neo4j driver, at a lower CPU priority than the thread that serves requests,
 * so a store's answer never waits for the JavaScript of linking the stores
 * before it. Protocol (see linking-thread.ts):
 *   → workerData LinkingThreadInit
 *   → {type: 'link', items: [{id, memory, now}]} | {type: 'close'}
 *   ← {type: 'linked', store, links, ids} | {type: 'failed', ids, error}
 */
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { LinkPipeline, type CreatedLink, type LinkSource, type SynapseSettings } from '../../contexts/synapse/index.js';
import { createDriver, Neo4jGraph, type Neo4jSettings } from '../neo4j/index.js';
import { RequestActivity } from '../request-activity.js';

export interface LinkingThreadInit {
  readonly neo4j: Neo4jSettings;
  readonly settings: SynapseSettings;
  /** Added to the thread's nice value (Linux: per thread). */
  readonly nice: number;
  /** The serving thread's RequestActivity.shared: linking paces itself while requests run (null: never). */
  readonly activity: SharedArrayBuffer | null;
}

/** A memory to link, with the id its answer names and Synapse's clock reading. */
export type ToLink = { readonly id: number; readonly memory: LinkSource; readonly now: number };
export type ToLinkingThread = { readonly type: 'link'; readonly items: readonly ToLink[] } | { readonly type: 'close' };
export type FromLinkingThread =
  | { readonly type: 'linked'; readonly store: string; readonly links: CreatedLink[]; readonly ids: number[] }
  | { readonly type: 'failed'; readonly ids: number[]; readonly error: string };

const port = parentPort;
if (port) {
  const init = workerData as LinkingThreadInit;
  const post = (message: FromLinkingThread) => port.postMessage(message);
  try {
    setPriority(0, Math.min(19, getPriority(0) + init.nice)); // 0: this thread only, on Linux
  } catch {
    // Not permitted here: linking runs at the service's priority.
  }
  const driver = createDriver(init.neo4j.uri, init.neo4j.user, init.neo4j.password);
  const load = init.activity ? RequestActivity.seenFrom(init.activity) : null;
  const pipeline = new LinkPipeline<number>(
    new Neo4jGraph(driver, init.neo4j.database),
    init.settings,
    (store, links, ids) => post({ type: 'linked', store, links, ids }),
    load,
  );
  port.on('message', (message: ToLinkingThread) => {
    if (message.type === 'close') {
      void driver.close().finally(() => port.close());
      return;
    }
    // Handed to the pipeline in one go, so they join one batch.
    for (const { id, memory, now } of message.items) {
      pipeline.link(memory, now, id).catch((error: unknown) => {
        post({ type: 'failed', ids: [id], error: error instanceof Error ? error.message : String(error) });
      });
    }
  });
}
