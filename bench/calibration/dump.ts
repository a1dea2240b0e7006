// --dump FILE: every candidate's evidence for every question, for fitting offline.
import { writeFileSync } from 'node:fs';
import type { Calibration } from '../../src/contexts/recall/index.js';
import { ALL_SIGNALS, DEFAULT_CALIBRATIONS } from '../../src/contexts/recall/testing.js';
import type { AskAll } from './ask.js';

export async function dumpCandidates(askAll: AskAll, keyOf: ReadonlyMap<string, string>, file: string): Promise<void> {
  // Association weighed strongly so that the memories it reaches are among the 100 dumped (the features do not depend
  // on it).
  const strong = (c: Calibration) => ({ ...c, association: 3 });
  const rows = await askAll(
    { fused: strong(DEFAULT_CALIBRATIONS.fused), lexical: strong(DEFAULT_CALIBRATIONS.lexical) },
    ALL_SIGNALS,
    100,
  );
  const out = rows.map(({ plan, asked, hits }) => ({
    source: plan.source,
    split: plan.split,
    group: asked.group ?? plan.group,
    kind: plan.kind,
    size: plan.inputs.length,
    q: asked.q,
    answers: asked.answers,
    hits: hits.map((h) => ({
      key: keyOf.get(h.memory.id),
      sim: h.similarity,
      cov: h.coverage,
      exact: h.exact,
      miss: h.exactMiss,
      kindMiss: h.kindMiss,
      person: h.personMatch,
      date: h.dateMatch,
      act: h.activation,
      assoc: h.association,
      conf: h.confidence,
      via: h.via === null ? null : (keyOf.get(h.via) ?? null),
      text: h.textScore,
      content: h.memory.content,
    })),
  }));
  writeFileSync(file, JSON.stringify(out));
  console.log(`dumped ${out.length} questions to ${file}`);
}
