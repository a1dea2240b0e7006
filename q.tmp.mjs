import neo4j from 'neo4j-driver';
import { readFileSync } from 'node:fs';
const pw = readFileSync('/work/main/.data/neo4j/password', 'utf8').trim();
const d = neo4j.driver('bolt://127.0.0.1:7687', neo4j.auth.basic('neo4j', pw));
const r = await d.executeQuery("MATCH (m:Memory) RETURN m.store AS s, count(*) AS n ORDER BY n DESC LIMIT 10", {}, { database: 'neo4j' });
console.log(r.records.map((x) => [x.get('s'), x.get('n').toNumber()]));
const t = await d.executeQuery("MATCH (m:Memory) RETURN count(*) AS n", {}, { database: 'neo4j' });
console.log('total', t.records[0].get('n').toNumber());
await d.close();
