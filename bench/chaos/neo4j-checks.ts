// Checks in Neo4j, straight through the driver: every acknowledged store is there once, linked and embedded.
import neo4j, { type Driver } from 'neo4j-driver';
import { loadConfig } from '../../src/config.js';
import { percentile } from '../lib.js';
import type { Load } from './load.js';
import { SERVICE_ENV } from './settings.js';
import { sleep } from './wait.js';

/** Made once `services:up` ran: the local server's password is read from the data folder, as the service reads it. */
let checker: Driver | null = null;
export function driverFor(): Driver {
  if (!checker) {
    const { uri, user, password } = loadConfig(SERVICE_ENV).neo4j;
    checker = neo4j.driver(uri, password ? neo4j.auth.basic(user, password) : undefined, {
      disableLosslessIntegers: true,
    });
  }
  return checker;
}

async function cypher<T>(text: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const r = await driverFor().executeQuery(text, params);
  return r.records.map((rec) => rec.toObject() as T);
}

export interface Verdict {
  acknowledged: number;
  lost: number;
  wrongContent: number;
  duplicateMemories: number;
  missingStoredEvent: number;
  duplicateStoredEvent: number;
  pendingLinks: number;
  pendingEmbeddings: number;
  convergedMs: number;
}

export async function verify(load: Load, since: number): Promise<Verdict> {
  const ids = [...load.acked.keys()];
  const check = async () =>
    (
      await cypher<{
        found: number;
        wrong: number;
        dup: number;
        noEvent: number;
        dupEvent: number;
        links: number;
        emb: number;
      }>(
        `UNWIND $rows AS row
         OPTIONAL MATCH (m:Memory {id: row.id})
         WITH row, collect(m) AS ms
         WITH row, ms, head(ms) AS m
         OPTIONAL MATCH (e:Event {type: 'MemoryStored'})-[:ABOUT]->(m)
         WITH row, ms, m, count(e) AS events
         RETURN count(m) AS found,
                sum(CASE WHEN m IS NOT NULL AND m.content <> row.content THEN 1 ELSE 0 END) AS wrong,
                sum(CASE WHEN size(ms) > 1 THEN 1 ELSE 0 END) AS dup,
                sum(CASE WHEN m IS NOT NULL AND events = 0 THEN 1 ELSE 0 END) AS noEvent,
                sum(CASE WHEN events > 1 THEN 1 ELSE 0 END) AS dupEvent,
                sum(CASE WHEN m.linkPendingAt IS NOT NULL THEN 1 ELSE 0 END) AS links,
                sum(CASE WHEN m.embeddingStatus <> 'DONE' THEN 1 ELSE 0 END) AS emb`,
        { rows: ids.map((id) => ({ id, content: load.acked.get(id) })) },
      )
    )[0]!;
  let last = await check();
  const deadline = Date.now() + 600_000;
  while ((last.links > 0 || last.emb > 0) && Date.now() < deadline) {
    await sleep(2000);
    last = await check();
  }
  return {
    acknowledged: ids.length,
    lost: ids.length - last.found,
    wrongContent: last.wrong,
    duplicateMemories: last.dup,
    missingStoredEvent: last.noEvent,
    duplicateStoredEvent: last.dupEvent,
    pendingLinks: last.links,
    pendingEmbeddings: last.emb,
    convergedMs: Date.now() - since,
  };
}

export async function sessionsOpen(load: Load): Promise<{ open: number; of: number }> {
  const rows = await cypher<{ open: number; of: number }>(
    `MATCH (s:Session {store: $store}) RETURN count(s) AS of, sum(CASE WHEN s.endedAt IS NULL THEN ` +
      `1 ELSE 0 END) AS open`,
    { store: load.store },
  );
  return rows[0] ?? { open: 0, of: 0 };
}

export async function idleRoundTripMs(): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await driverFor().executeQuery('RETURN 1');
    samples.push(performance.now() - t);
  }
  return Math.round(percentile(samples, 50) * 100) / 100;
}

export async function closeChecker(): Promise<void> {
  await checker?.close();
}
