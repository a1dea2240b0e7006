import { describe, expect, it } from 'vitest';
import { fittingActions, reflectKindOf, suggestedTier } from '../../src/contexts/recall/testing.js';
import { reflectPrompt, reflectPromptText } from '../../src/contexts/cortex/index.js';
import type { MemoryRecord, Tier } from '../../src/domain/index.js';

const memory = (id: string, over: Partial<MemoryRecord> = {}): MemoryRecord =>
  ({
    id,
    store: 's',
    content: `content of ${id}`,
    tier: 'LONG_TERM',
    claimed: false,
    tags: [],
    people: [],
    emotions: [],
    metadata: null,
    occurredAt: 0,
    createdAt: 0,
    lastAccessedAt: null,
    accessCount: 0,
    sessionId: null,
    ...over,
  }) as MemoryRecord;
const none = { weak: [], near: [], duplicates: [] };
const kinds = (m: MemoryRecord, ties = none, reason = 'STALE: x') =>
  fittingActions(m, reflectKindOf(reason), ties).map((a) => a.kind);

describe('reflect actions', () => {
  it('offers claim and forget only for unclaimed memories outside the identity core, and keep always, last', () => {
    expect(kinds(memory('a'))).toEqual(['CLAIM', 'RECLASSIFY', 'FORGET', 'KEEP']);
    expect(kinds(memory('a', { claimed: true }))).toEqual(['RECLASSIFY', 'KEEP']);
    expect(kinds(memory('a', { tier: 'IDENTITY_CORE' }))).toEqual(['RECLASSIFY', 'KEEP']);
  });

  it(
    'offers associate with the weakly tied (weakest first, their own type) and the unlinked near ones, consolidate ' +
      'with near-duplicates',
    () => {
      const ties = {
        weak: [{ type: 'PERSON' as const, strength: 0.12, memory: memory('w') }],
        near: [memory('n'), memory('w')],
        duplicates: [memory('d')],
      };
      const actions = fittingActions(memory('a'), 'RECENT', ties);
      const associate = actions.find((a) => a.kind === 'ASSOCIATE')!;
      expect(associate.memories.map((m) => m.id)).toEqual(['w', 'n']);
      expect(associate.associationTypes).toEqual(['PERSON', 'THEMATIC']);
      expect(actions.find((a) => a.kind === 'CONSOLIDATE')!.memories.map((m) => m.id)).toEqual(['d']);
      expect(actions.find((a) => a.kind === 'FORGET')!.needsConsent).toBe(true);
    },
  );

  it('suggests a tier for each tier and reason, never the one the memory is in', () => {
    const cases: [Tier, boolean, 'STALE' | 'RECENT' | 'WEAK_ASSOCIATIONS', Tier][] = [
      ['ARCHIVE', false, 'STALE', 'LONG_TERM'],
      ['ACTIVE_CONTEXT', false, 'RECENT', 'LONG_TERM'],
      ['IDENTITY_CORE', true, 'WEAK_ASSOCIATIONS', 'LONG_TERM'],
      ['LONG_TERM', false, 'STALE', 'ARCHIVE'],
      ['LONG_TERM', false, 'WEAK_ASSOCIATIONS', 'ARCHIVE'],
      ['LONG_TERM', true, 'STALE', 'IDENTITY_CORE'],
      ['LONG_TERM', false, 'RECENT', 'IDENTITY_CORE'],
    ];
    for (const [tier, claimed, kind, expected] of cases) {
      expect(suggestedTier(memory('a', { tier, claimed }), kind), `${tier} ${claimed} ${kind}`).toBe(expected);
      expect(expected).not.toBe(tier);
    }
  });

  it('reads the scope from the reason Recall wrote', () => {
    expect(reflectKindOf('STALE: untouched for 40 days')).toBe('STALE');
    expect(reflectKindOf('RECENT: stored 2 h ago')).toBe('RECENT');
    expect(reflectKindOf('WEAK_ASSOCIATIONS: linked to nothing')).toBe('WEAK_ASSOCIATIONS');
  });
});

describe('reflect prompt', () => {
  const candidate = (id: string) => ({
    memory: memory(id),
    reason: 'STALE: untouched',
    staleDays: 40.5,
    associationCount: 0,
    actions: fittingActions(memory(id), 'STALE', none),
  });

  it('lists each unanswered candidate with its actions and says how to answer', () => {
    const text = reflectPromptText([candidate('m1'), candidate('m2')], {
      store: 'home',
      reflectionId: 'rfl_1',
      answered: new Set(['m2']),
    });
    expect(text).toContain('store "home": 1 memory to review');
    expect(text).toContain('reflectionId: "rfl_1"');
    expect(text).toContain('memory m1 (LONG_TERM, unclaimed, 0 associations, untouched 40 days)');
    expect(text).toContain('- RECLASSIFY [tier: ARCHIVE]');
    expect(text).not.toContain('memory m2');
  });

  it('is one user message for an MCP prompt, and says when nothing is left', () => {
    const prompt = reflectPrompt([candidate('m1')], { store: 'home', reflectionId: 'rfl_1' });
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
    expect(reflectPromptText([candidate('m1')], { store: 'home', answered: new Set(['m1']) })).toMatch(/nothing left/);
  });
});
