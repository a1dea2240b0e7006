/**
 * The first layer: the Neo4j connection (waited for, schema applied), the bus,
 * and the contexts that own the graph (Hippocampus, Salience, Synapse, Sessions).
 */
import type { Driver } from 'neo4j-driver';
import { Bus, ProgressBoard, type Logger, type GraphPort } from '../domain/index.js';
import { createDriver, IndexBuilds, Neo4jGraph, applySchema, waitForNeo4j } from '../adapters/neo4j/index.js';
import { linkingThread } from '../adapters/linking-thread/index.js';
import type { RequestActivity } from '../adapters/request-activity.js';
import { Hippocampus, storeGroupSettings } from '../contexts/hippocampus/index.js';
import { Salience } from '../contexts/salience/index.js';
import { Synapse } from '../contexts/synapse/index.js';
import { Sessions } from '../contexts/cortex/index.js';
import type { Config } from '../config.js';

/**
 * A driver whose server answered (and, unless told otherwise, has the schema), and the indexes Neo4j is still
 * building; the driver is closed again when it cannot start.
 */
export async function connect(
  config: Config,
  schema: boolean,
  logger: Logger,
): Promise<{ driver: Driver; building: string[] }> {
  const { uri, user, password, database } = config.neo4j;
  const driver = createDriver(uri, user, password, config.security.poolAcquisitionMs);
  try {
    await waitForNeo4j(driver, database, config.connectWaitMs, logger.info);
    const building = schema ? await applySchema(driver, database, (line) => logger.info(line)) : [];
    return { driver, building };
  } catch (error) {
    await driver.close(); // a process that cannot start leaves no connection behind
    throw error;
  }
}

export interface Core {
  readonly graph: GraphPort;
  readonly bus: Bus;
  readonly progress: ProgressBoard;
  readonly hippocampus: Hippocampus;
  readonly salience: Salience;
  readonly synapse: Synapse;
  readonly sessions: Sessions;
  /** Indexes Neo4j is still building (health says what that costs). */
  readonly indexes: IndexBuilds;
}

export function buildCore(
  config: Config,
  driver: Driver,
  clock: () => number,
  logger: Logger,
  activity: RequestActivity,
  building: readonly string[] = [],
): Core {
  const graph = new Neo4jGraph(driver, config.neo4j.database);
  const bus = new Bus({ clock });
  bus.onFailure((error, message, actor) => logger.error(`[${actor}] failed on ${message.type}:`, error));
  // The bus trail at debug level: every message, with its id and cause, as it passes (the audit events no
  // context subscribes to are published for this).
  if (config.log.level === 'debug') {
    bus.tap(({ type, meta }) =>
      logger.debug(`bus: ${type} ${meta.messageId} from ${meta.sourceContext} cause ${meta.causationId ?? '-'}`),
    );
  }
  const progress = new ProgressBoard(clock);
  const indexes = new IndexBuilds(driver, config.neo4j.database, progress, (line) => logger.info(line));
  indexes.watch(building);
  const hippocampus = new Hippocampus({
    graph,
    bus,
    limits: {
      defaultStore: config.defaultStore,
      maxContentBytes: config.maxContentBytes,
      maxBatch: config.maxBatch,
      embeddingDimensions: config.embeddingDimensions,
    },
    clock,
    linking: config.synapse.mechanicalLinking,
    groupCommit: storeGroupSettings(config.storeGroupMax),
  }).register();
  const salience = new Salience({ graph, bus, config: config.salience, clock, progress }).register();
  const synapse = new Synapse({
    graph,
    bus,
    settings: config.synapse,
    clock,
    linkingThread: config.synapse.linkingThread ? linkingThread(config.neo4j, config.synapse, activity.shared) : null,
    load: activity,
  }).register();
  const sessions = new Sessions({ graph, bus, clock }).register();
  return { graph, bus, progress, hippocampus, salience, synapse, sessions, indexes };
}
