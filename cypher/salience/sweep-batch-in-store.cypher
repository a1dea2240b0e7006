// One batch of a decay sweep of one store: the memories with ids in ($after, $until].
// A memory whose tier Salience has settled (its anchor matches the node, or it
// has no anchor and was never moved) only decays: its score is the anchor — or
// the tier's start score at createdAt with any claim and uses folded in, in time
// order — decayed to $now: the same formulas as fold() and scoreAt() in
// model.ts. It is written here when it moved at least $model.epsilon. The others
// (a move to fold in, an event after $now, a score calling for a tier change)
// come back whole for Salience to handle. IDENTITY_CORE is never touched.
// Salience's own properties only, and not stamped (changedAt): the score is derived, and cold storage
// leaves it out. Each property is read once, and the ones most
// memories lack (marked uses, an anchor, a stored score) only when they can
// matter: a missing property costs a walk of the node's whole property chain.
// params: $store, $after, $until, $now, $model
// returns: scanned, written, pending
MATCH (m:Memory)
WHERE m.store = $store AND m.id > $after AND m.id <= $until AND m.tier <> 'IDENTITY_CORE'
WITH m, m.tier AS tier, m.claimed AS claimed, m.salienceUses AS marked, m.salienceAnchorTier AS anchorTier,
  m.salience AS stored
WITH m, tier, claimed, marked, anchorTier, stored, coalesce(m.accessCount, 0) + coalesce(marked, 0) AS uses,
  m.createdAt.epochMillis AS created,
  CASE WHEN marked IS NULL THEN m.lastAccessedAt
    ELSE CASE WHEN m.salienceUsedAt IS NULL OR m.lastAccessedAt > m.salienceUsedAt
      THEN m.lastAccessedAt ELSE m.salienceUsedAt END END AS lastUse
WITH m, tier, claimed, anchorTier, stored, uses, created,
  [e IN [CASE WHEN claimed THEN {claim: true, at: coalesce(m.claimedAt.epochMillis, created)} END,
         CASE WHEN uses > 0 THEN {claim: false, at: coalesce(lastUse.epochMillis, created)} END]
   WHERE e IS NOT NULL] AS events
WITH m, tier, claimed, anchorTier, stored, uses, created,
  CASE WHEN size(events) = 2 AND events[1].at < events[0].at THEN [events[1], events[0]] ELSE events END AS events
WITH m, tier, claimed, stored, uses,
  CASE WHEN anchorTier IS NOT NULL
    THEN {settled: anchorTier = tier AND m.salienceAnchorUses = uses AND m.salienceAnchorClaimed = claimed,
          level: m.salienceAnchor, at: m.salienceAnchorAt.epochMillis}
    ELSE reduce(s = {settled: m.tierChangedAt IS NULL, level: $model.start[tier], at: created, claimed: false, uses: 0},
                e IN events |
      {settled: s.settled AND e.at <= $now, at: CASE WHEN e.at > s.at THEN e.at ELSE s.at END,
       claimed: s.claimed OR e.claim,
       uses: CASE WHEN e.claim THEN s.uses ELSE uses END,
       level: 1.0 - (1.0 - s.level * 2.0 ^ (-toFloat(CASE WHEN e.at > s.at THEN e.at - s.at ELSE 0 END)
                / (toFloat($model.halfLife[tier]) * CASE WHEN s.claimed THEN $model.claimFactor ELSE 1.0 END
                   * (1.0 + $model.useStability * log(1.0 + s.uses)))))
              * CASE WHEN e.claim THEN 1.0 - $model.claimBoost ELSE (1.0 - $model.accessBoost) ^ uses END})
  END AS a
WITH m, tier, stored, a.settled AS settled,
  $model.floor + (1.0 - $model.floor) * a.level * 2.0 ^ (-toFloat(CASE WHEN $now > a.at THEN $now - a.at ELSE 0 END)
    / (toFloat($model.halfLife[tier]) * CASE WHEN claimed THEN $model.claimFactor ELSE 1.0 END
       * (1.0 + $model.useStability * log(1.0 + uses)))) AS score
WITH m, stored, score,
  settled AND NOT CASE tier
    WHEN 'ACTIVE_CONTEXT' THEN score < $model.demoteFromActive + 1e-9
    WHEN 'LONG_TERM' THEN score > $model.promoteToActive - 1e-9 OR score < $model.demoteToArchive + 1e-9
    WHEN 'ARCHIVE' THEN score > $model.promoteFromArchive - 1e-9
    ELSE true END AS simple
WITH m, score, simple,
  simple AND (stored IS NULL OR CASE WHEN m.salienceAt IS NULL THEN true
    ELSE m.salienceAt.epochMillis <= $now AND stored <> score AND abs(stored - score) >= $model.epsilon END) AS write
FOREACH (_ IN CASE WHEN write THEN [1] ELSE [] END |
  SET m.salience = score, m.salienceAt = datetime({epochMillis: $now}))
WITH count(m) AS scanned, sum(CASE WHEN write THEN 1 ELSE 0 END) AS written,
  collect(CASE WHEN simple THEN null ELSE m {
    .id, .store, .tier, .accessCount, .claimed, .salience, createdAt: m.createdAt.epochMillis,
    lastAccessedAt: m.lastAccessedAt.epochMillis, claimedAt: m.claimedAt.epochMillis,
    tierChangedAt: m.tierChangedAt.epochMillis,
    salienceAt: m.salienceAt.epochMillis, anchorLevel: m.salienceAnchor, anchorAt: m.salienceAnchorAt.epochMillis,
    anchorTier: m.salienceAnchorTier, anchorUses: m.salienceAnchorUses, anchorClaimed: m.salienceAnchorClaimed,
    marked: m.salienceUses, markedAt: m.salienceUsedAt.epochMillis
  } END) AS pending
RETURN scanned, written, pending
