// Finds, for each newly stored memory, the memories of its store that the
// mechanical rules may link it to, through indexes only (never a scan):
//   same session within ±$windowMs, nearest first (range index memory_session_time);
//   the thematic full-text query, top $textLimit by BM25 (memory_text);
//   the people full-text query, top $textLimit by BM25 (memory_text);
//   input.poolIds: of the store's newest memories, those sharing a person or
//   an emotion, chosen in process (mechanical.ts), so a common label links
//   along the timeline, not into an old hub.
// Every candidate comes with its degree per mechanical type (for the caps:
// counting all four costs less than telling which rules apply). Candidates
// come back as lists (cheaper to decode than maps, and there are ~40 a memory):
//   [id, sessionId, occurredAt, createdAt, people, emotions, textScore,
//    [TEMPORAL, THEMATIC, PERSON, EMOTIONAL degrees]]
// The memory's own BM25 score for its thematic query comes back as selfScore,
// its own degrees as degree.
// params: $memories, $windowMs, $temporalLimit, $textLimit
// returns: id, selfScore, degree, candidates
UNWIND $memories AS input
MATCH (m:Memory {id: input.id})
CALL (m, input) {
  MATCH (c:Memory)
  WHERE m.sessionId IS NOT NULL AND c.sessionId = m.sessionId
    AND c.occurredAt >= m.occurredAt - duration({milliseconds: $windowMs})
    AND c.occurredAt <= m.occurredAt + duration({milliseconds: $windowMs})
    AND c.store = m.store AND c <> m
  WITH c ORDER BY abs(c.occurredAt.epochMillis - m.occurredAt.epochMillis), c.id
  LIMIT $temporalLimit
  RETURN c, null AS textScore
  UNION ALL
  UNWIND CASE WHEN input.thematicQuery IS NULL THEN [] ELSE [input.thematicQuery] END AS query
  CALL db.index.fulltext.queryNodes('memory_text', query, {limit: $textLimit}) YIELD node, score
  WITH node AS c, score WHERE c.store = m.store
  RETURN c, score AS textScore
  UNION ALL
  UNWIND CASE WHEN input.peopleQuery IS NULL THEN [] ELSE [input.peopleQuery] END AS query
  CALL db.index.fulltext.queryNodes('memory_text', query, {limit: $textLimit}) YIELD node
  WITH node AS c WHERE c.store = m.store
  RETURN c, null AS textScore
  UNION ALL
  UNWIND input.poolIds AS poolId
  MATCH (c:Memory {id: poolId})
  WHERE c.store = m.store
  RETURN c, null AS textScore
}
WITH m, c, max(textScore) AS textScore
WITH m, c, textScore, {
  TEMPORAL: COUNT { (c)-[:TEMPORAL]-() },
  THEMATIC: COUNT { (c)-[:THEMATIC]-() },
  PERSON: COUNT { (c)-[:PERSON]-() },
  EMOTIONAL: COUNT { (c)-[:EMOTIONAL]-() }
} AS degree
WITH m,
  collect(CASE WHEN c = m THEN {score: textScore, degree: degree} END) AS self,
  collect(CASE WHEN c <> m THEN [
    c.id, c.sessionId, c.occurredAt.epochMillis, c.createdAt.epochMillis,
    c.people, c.emotions, textScore, [degree.TEMPORAL, degree.THEMATIC, degree.PERSON, degree.EMOTIONAL]
  ] END) AS candidates
RETURN m.id AS id, self[0].score AS selfScore, self[0].degree AS degree, candidates
