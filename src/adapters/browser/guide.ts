/**
 * The Neo4j Browser guide: one slide per question a person asks of a store,
 * each a runnable query (`:guide http://HOST:PORT/browser/guide.html?store=S`),
 * and the GraSS style the guide applies (`:style …/browser/style.grass`).
 * Served by the project's own HTTP server; the Browser fetches both from the
 * page's origin, so they go out with CORS headers.
 */
import { readFileSync } from 'node:fs';

export const GUIDE_PATH = '/browser/guide.html';
export const STYLE_PATH = '/browser/style.grass';

export interface Slide {
  readonly title: string;
  /** What the query shows and how to read it (plain text). */
  readonly text: string;
  /** One runnable Cypher query; `$STORE` stands for the store (a Cypher string literal). */
  readonly query: string;
}

const ASSOCIATIONS = 'TEMPORAL|CAUSAL|THEMATIC|EMOTIONAL|PERSON';

/** The slides, in the order a person would explore. The first one's query is the one the Browser check runs. */
export const SLIDES: readonly Slide[] = [
  {
    title: "A store's memories by tier",
    text:
      'The 25 most salient memories of each tier and the associations among them. Colour is the tier: red ' +
      'IDENTITY_CORE, amber ACTIVE_CONTEXT, blue LONG_TERM, grey ARCHIVE; a link is captioned with its type and ' +
      'strength.',
    query: `WITH $STORE AS store
MATCH (m:Memory {store: store})
WITH m.tier AS tier, m ORDER BY coalesce(m.salience, 0.0) DESC, m.id
WITH tier, collect(m)[..25] AS top
UNWIND top AS m
WITH collect(m) AS shown
UNWIND shown AS m
OPTIONAL MATCH (m)-[r:${ASSOCIATIONS}]->(o:Memory)
WHERE o IN shown
RETURN m, r, o`,
  },
  {
    title: 'One memory and its audit trail',
    text:
      'The memory with the longest history (put an id in place of null to pick one): every event about it, stored, ' +
      'accessed, claimed, reclassified, retrieved, answered in a reflection.',
    query: `WITH $STORE AS store, null AS id
MATCH (m:Memory {store: store})
WHERE id IS NULL OR m.id = id
WITH m ORDER BY COUNT { (:Event)-[:ABOUT]->(m) } DESC, m.id LIMIT 1
MATCH (e:Event)-[a:ABOUT]->(m)
RETURN m, a, e`,
  },
  {
    title: 'Its associations of each type, two hops out',
    text:
      'From the best-connected memory (or the id you name): up to 15 paths of one or two links per association type, ' +
      'each path of a single type.',
    query: `WITH $STORE AS store, null AS id
MATCH (m:Memory {store: store})
WHERE id IS NULL OR m.id = id
WITH m ORDER BY COUNT { (m)-[:${ASSOCIATIONS}]-() } DESC, m.id LIMIT 1
UNWIND ['TEMPORAL', 'CAUSAL', 'THEMATIC', 'EMOTIONAL', 'PERSON'] AS type
CALL {
  WITH m, type
  MATCH p = (m)-[rs:${ASSOCIATIONS}*1..2]-(:Memory)
  WHERE all(r IN rs WHERE type(r) = type)
  RETURN p LIMIT 15
}
RETURN p`,
  },
  {
    title: 'What faded this week',
    text:
      'Memories Salience moved down in the last seven days: into the archive, or out of the active context into long ' +
      'term. Each with the TierChanged event that says why.',
    query: `WITH $STORE AS store
MATCH (e:Event)-[a:ABOUT]->(m:Memory)
WHERE e.store = store AND e.id IS NOT NULL AND e.type = 'TierChanged'
  AND e.at >= datetime() - duration('P7D')
  AND e.payload CONTAINS '"by":"SALIENCE"'
  AND (e.payload CONTAINS '"to":"ARCHIVE"' OR e.payload STARTS WITH '{"from":"ACTIVE_CONTEXT","to":"LONG_TERM"')
RETURN m, a, e
ORDER BY e.at DESC LIMIT 100`,
  },
  {
    title: 'What a session stored and decided',
    text: 'The newest session of the store, the memories stored in it and the decisions logged in it.',
    query: `WITH $STORE AS store
MATCH (s:Session {store: store})
USING INDEX s:Session(store, startedAt)
WHERE s.startedAt IS NOT NULL
WITH s ORDER BY s.startedAt DESC LIMIT 1
OPTIONAL MATCH (m:Memory)-[st:STORED_IN]->(s)
OPTIONAL MATCH (d:Decision)-[di:DECIDED_IN]->(s)
RETURN s, m, st, d, di`,
  },
  {
    title: 'The strongest CAUSAL chains',
    text:
      'Chains of up to four CAUSAL links, strongest first (the product of their strengths). Associations have no ' +
      'direction: read a chain either way.',
    query: `WITH $STORE AS store
MATCH p = (a:Memory {store: store})-[:CAUSAL*1..4]-(b:Memory)
WHERE a.id < b.id AND all(n IN nodes(p) WHERE single(x IN nodes(p) WHERE x = n))
WITH p, reduce(s = 1.0, r IN relationships(p) | s * r.strength) AS strength
RETURN p, strength
ORDER BY strength DESC, length(p) DESC LIMIT 10`,
  },
  {
    title: 'Consolidations and their originals',
    text:
      'Memories made by consolidating near-duplicates, each linked to the originals it was made from (the originals ' +
      'are always kept).',
    query: `WITH $STORE AS store
MATCH (c:Memory {store: store})-[f:CONSOLIDATED_FROM]->(o:Memory)
USING INDEX c:Memory(store)
RETURN c, f, o LIMIT 100`,
  },
  {
    title: "A reflect session's answers",
    text:
      "The newest reflection: the memories it reviewed and the mind's answer to each (the event says what was " +
      'decided and why).',
    query: `WITH $STORE AS store
MATCH (r:Reflection {store: store})
USING INDEX r:Reflection(store, startedAt)
WHERE r.startedAt IS NOT NULL
WITH r ORDER BY r.startedAt DESC LIMIT 1
MATCH (r)-[v:REVIEWS]->(m:Memory)
OPTIONAL MATCH (e:Event)-[:ANSWERS]->(r)
OPTIONAL MATCH (e)-[a:ABOUT]->(m)
RETURN r, v, m, e, a`,
  },
];

/** A Cypher string literal for a value (JSON's escapes are Cypher's). */
export function cypherString(value: string): string {
  return JSON.stringify(value);
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A slide's query for one store. */
export function slideQuery(slide: Slide, store: string): string {
  return slide.query.replaceAll('$STORE', cypherString(store));
}

/**
 * The guide as the Browser reads it: `<slide>` sections whose `pre.runnable`
 * blocks run with one click; the first slide has a button that applies the
 * style (`data-exec` runs a Browser command).
 */
export function guideHtml(store: string, styleUrl: string): string {
  const slides = SLIDES.map((slide, i) => {
    const style =
      i === 0
        ? `<p><button type="button" class="btn btn-primary" data-exec="style ${escapeHtml(styleUrl)}">` +
          `Apply the Total Recall style</button> (or run <code>:style ${escapeHtml(styleUrl)}</code>)</p>`
        : '';
    return `<slide class="row-fluid">
  <div class="col-sm-12">
    <h3>${i + 1}. ${escapeHtml(slide.title)}</h3>
    ${style}
    <p>${escapeHtml(slide.text)}</p>
    <pre class="code runnable" mode="cypher">${escapeHtml(slideQuery(slide, store))}</pre>
  </div>
</slide>`;
  });
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Total Recall: store ${escapeHtml(store)}</title></head>
<body>
<article class="guide">
${slides.join('\n')}
</article>
</body></html>
`;
}

let style: string | null = null;
/** The GraSS file (read once). */
export function styleGrass(): string {
  style ??= readFileSync(new URL('./total-recall.grass', import.meta.url), 'utf8');
  return style;
}
