/**
 * A small but complete graph for cold-storage tests (every kind of node and
 * link the service writes), and readers of an export file.
 */
import { readFile } from 'node:fs/promises';
import { GraphDigest, type Line } from '../src/adapters/cold-storage/testing.js';
import type { TestApp } from './helpers.js';
import { eventually } from './background.js';

/** A small but complete graph in one store: every kind of node and link the service writes. */
export async function populate(t: TestApp, store: string): Promise<{ sessionId: string; ids: string[] }> {
  const i = `cold-${store.slice(-8)}`;
  const as = { 'x-instance-id': i };
  const gql = async <T>(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const res = await t.gql<T>(query, variables, headers);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data as T;
  };
  const { startSession } = await gql<{ startSession: { id: string } }>(
    'mutation ($in: StartSessionInput!) { startSession(input: $in) { id } }',
    { in: { instanceId: i, mindType: 'claude', store, task: 'remember Lisbon', project: 'travel' } },
  );
  await gql(
    'mutation ($i: String!) { transition(instanceId: $i, mode: CONVERSATION, context: {step: 2, note: ' +
      '"ünïcödé ✓"}) { id } }',
    { i },
    as,
  );
  await gql(
    'mutation ($i: String!) { logDecision(instanceId: $i, text: "book the train", rationale: "cheaper ' +
      'than flying") { id } }',
    { i },
    as,
  );
  const embedding = Array.from({ length: t.config.embeddingDimensions }, (_, k) => Math.sin(k + 0.5) / 3);
  const STORE = 'mutation ($in: StoreInput!) { store(input: $in) { id } }';
  const ids: string[] = [];
  for (const input of [
    {
      content: 'We spent two weeks in Lisbon in May.',
      tags: ['travel', 'lisbon'],
      people: ['Ana'],
      emotions: ['joy'],
      metadata: { n: 1, nested: { ok: true } },
      occurredAt: '2026-05-01T12:00:00.123Z',
      embedding,
    },
    { content: 'Lisbon in May: two weeks with Ana.', tags: ['travel'], tier: 'ACTIVE_CONTEXT' },
    { content: 'I value honest recall.', tier: 'IDENTITY_CORE' },
  ])
    ids.push((await gql<{ store: { id: string } }>(STORE, { in: { store, ...input } }, as)).store.id);
  await gql('mutation ($id: ID!) { claim(id: $id) { id } }', { id: ids[0] });
  await gql('mutation ($id: ID!) { memory(id: $id) { id } }'.replace('mutation', 'query'), { id: ids[1] });
  await t.cypher(
    'MATCH (a:Memory {id: $a}), (b:Memory {id: $b}) MERGE (a)-[r:THEMATIC]-(b) ON CREATE SET r.strength = 0.55, ' +
      'r.origin = "SEMANTIC"',
    { a: ids[0], b: ids[1] },
  );
  await gql('mutation ($ids: [ID!]!) { consolidate(ids: $ids, strategy: COMBINE) { id } }', { ids: [ids[0], ids[1]] });
  // A recall and a use of it (Recall and Use nodes, RETRIEVED links).
  const { search } = await gql<{ search: { id: string; hits: { memory: { id: string } }[] } }>(
    'query ($in: SearchInput!) { search(input: $in) { id hits { memory { id } } } }',
    { in: { store, query: 'Lisbon in May', includeAssociations: false } },
  );
  if (search.hits.length === 0) throw new Error('the recall found nothing');
  await gql(
    'mutation ($r: ID!, $m: [ID!]) { markUsed(recallId: $r, memoryIds: $m, action: {answered: "when"}) { id } }',
    { r: search.id, m: [search.hits[0]!.memory.id] },
  );
  await gql('mutation ($i: String!) { endSession(instanceId: $i, reason: "done") { prompt } }', { i }, as);
  // The audit notification, kept in the graph by a worker.
  await eventually(async () => {
    const rows = await t.cypher<{ n: number }>('MATCH (n:Notification {sessionId: $id}) RETURN count(n) AS n', {
      id: startSession.id,
    });
    return (rows[0]?.n ?? 0) > 0 ? true : undefined;
  });
  await t.app.bus.idle();
  return { sessionId: startSession.id, ids };
}

export async function readExport(path: string): Promise<Line[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);
}

/** The graph an export holds, as sorted canonical records (what a round trip must keep). */
export async function graphOf(path: string): Promise<string[]> {
  const graph = new GraphDigest(true);
  for (const line of await readExport(path)) {
    if (line.type === 'node') graph.node(line);
    else if (line.type === 'relationship') graph.relationship(line);
  }
  return graph.records();
}
