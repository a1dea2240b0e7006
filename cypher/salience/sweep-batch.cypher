// One batch of a decay sweep over every store, in id order after the cursor.
// A memory whose tier Salience has settled (its anchor matches the node, or it
// has no anchor and was never moved) only decays: its score is the anchor — or
// the tier's start score at createdAt with any claim and uses folded in, in time
// order — decayed to $now: the same formulas as fold() and scoreAt() in
// model.ts. It is written here when it moved at least $model.epsilon. The others
// (a move to fold in, an event after $now, a score calling for a tier change)
// come back whole for Salience to handle. IDENTITY_CORE is never touched.
// Salience's own properties only.
// params: $after, $limit, $now, $model
// returns: scanned, last, written, pending
MATCH (m:Memory)
WHERE m.id > $after AND m.tier <> 'IDENTITY_CORE'
WITH m ORDER BY m.id LIMIT $limit
WITH m, coalesce(m.accessCount, 0) + coalesce(m.salienceUses, 0) AS uses, m.createdAt.epochMillis AS created,
  CASE WHEN m.salienceUsedAt IS NULL OR m.lastAccessedAt > m.salienceUsedAt THEN m.lastAccessedAt ELSE m.salienceUsedAt END AS lastUse
WITH m, uses, created,
  [e IN [CASE WHEN m.claimed THEN {claim: true, at: coalesce(m.claimedAt.epochMillis, created)} END,
         CASE WHEN uses > 0 THEN {claim: false, at: coalesce(lastUse.epochMillis, created)} END] WHERE e IS NOT NULL] AS events
WITH m, uses, created,
  CASE WHEN size(events) = 2 AND events[1].at < events[0].at THEN [events[1], events[0]] ELSE events END AS events
WITH m, uses,
  CASE WHEN m.salienceAnchorTier IS NOT NULL
    THEN {settled: m.salienceAnchorTier = m.tier AND m.salienceAnchorUses = uses AND m.salienceAnchorClaimed = m.claimed,
          level: m.salienceAnchor, at: m.salienceAnchorAt.epochMillis}
    ELSE reduce(s = {settled: m.tierChangedAt IS NULL, level: $model.start[m.tier], at: created, claimed: false, uses: 0}, e IN events |
      {settled: s.settled AND e.at <= $now, at: CASE WHEN e.at > s.at THEN e.at ELSE s.at END, claimed: s.claimed OR e.claim,
       uses: CASE WHEN e.claim THEN s.uses ELSE uses END,
       level: 1.0 - (1.0 - s.level * 2.0 ^ (-toFloat(CASE WHEN e.at > s.at THEN e.at - s.at ELSE 0 END)
                / (toFloat($model.halfLife[m.tier]) * CASE WHEN s.claimed THEN $model.claimFactor ELSE 1.0 END * (1.0 + $model.useStability * log(1.0 + s.uses)))))
              * CASE WHEN e.claim THEN 1.0 - $model.claimBoost ELSE (1.0 - $model.accessBoost) ^ uses END})
  END AS a
WITH m, a.settled AS settled,
  $model.floor + (1.0 - $model.floor) * a.level * 2.0 ^ (-toFloat(CASE WHEN $now > a.at THEN $now - a.at ELSE 0 END)
    / (toFloat($model.halfLife[m.tier]) * CASE WHEN m.claimed THEN $model.claimFactor ELSE 1.0 END * (1.0 + $model.useStability * log(1.0 + uses)))) AS score
WITH m, score,
  settled AND NOT CASE m.tier
    WHEN 'ACTIVE_CONTEXT' THEN score < $model.demoteFromActive + 1e-9
    WHEN 'LONG_TERM' THEN score > $model.promoteToActive - 1e-9 OR score < $model.demoteToArchive + 1e-9
    WHEN 'ARCHIVE' THEN score > $model.promoteFromArchive - 1e-9
    ELSE true END AS simple
WITH m, score, simple,
  simple AND (m.salience IS NULL OR m.salienceAt IS NULL
    OR (m.salienceAt.epochMillis <= $now AND m.salience <> score AND abs(m.salience - score) >= $model.epsilon)) AS write
FOREACH (_ IN CASE WHEN write THEN [1] ELSE [] END | SET m.salience = score, m.salienceAt = datetime({epochMillis: $now}))
WITH count(m) AS scanned, max(m.id) AS last, sum(CASE WHEN write THEN 1 ELSE 0 END) AS written,
  collect(CASE WHEN simple THEN null ELSE m {
    .id, .store, .tier, .accessCount, .claimed, .salience, createdAt: m.createdAt.epochMillis,
    lastAccessedAt: m.lastAccessedAt.epochMillis, claimedAt: m.claimedAt.epochMillis, tierChangedAt: m.tierChangedAt.epochMillis,
    salienceAt: m.salienceAt.epochMillis, anchorLevel: m.salienceAnchor, anchorAt: m.salienceAnchorAt.epochMillis,
    anchorTier: m.salienceAnchorTier, anchorUses: m.salienceAnchorUses, anchorClaimed: m.salienceAnchorClaimed,
    marked: m.salienceUses, markedAt: m.salienceUsedAt.epochMillis
  } END) AS pending
RETURN scanned, last, written, pending
