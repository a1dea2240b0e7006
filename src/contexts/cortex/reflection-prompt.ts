/**
 * The reflect prompt: the candidates of a reflection and the answers that fit
 * each, as text a mind reads and as prompt messages (the shape an MCP
 * `prompts/get` returns: role plus a text content). Pure: no database.
 */
import type { ReflectCandidateWithActions } from '../../domain/index.js';

export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: { readonly type: 'text'; readonly text: string };
}

export interface ReflectPrompt {
  readonly description: string;
  readonly messages: readonly PromptMessage[];
}

export interface ReflectPromptOptions {
  readonly store: string;
  /** The reflection the answers go to (the answer's reflectionId); omit for a look without one. */
  readonly reflectionId?: string | null;
  /** Memory ids answered already (skipped in the list). */
  readonly answered?: ReadonlySet<string>;
  /**
   * Who reads it: GraphQL (the default) answers with the answerReflection mutation, an MCP client with the
   * reflect_answer tool (it has no GraphQL); both take the same answer fields.
   */
  readonly speaksTo?: 'graphql' | 'mcp';
}

const CONTENT_CHARS = 280;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > CONTENT_CHARS ? `${flat.slice(0, CONTENT_CHARS - 1)}…` : flat;
}

function candidateBlock(c: ReflectCandidateWithActions, n: number): string {
  const m = c.memory;
  const facts = [
    m.tier,
    m.claimed ? 'claimed' : 'unclaimed',
    `${c.associationCount} association${c.associationCount === 1 ? '' : 's'}`,
  ];
  if (c.staleDays !== null) facts.push(`untouched ${Math.floor(c.staleDays)} days`);
  const lines = [
    `${n}. memory ${m.id} (${facts.join(', ')})`,
    `   “${excerpt(m.content)}”`,
    `   why it is here: ${c.reason}`,
    '   answers that fit:',
  ];
  for (const a of c.actions) {
    const ids = a.memories.length > 0 ? ` [with: ${a.memories.map((x) => x.id).join(', ')}]` : '';
    const tier = a.tier ? ` [tier: ${a.tier}]` : '';
    lines.push(`   - ${a.kind}${tier}${ids}: ${a.description}`);
  }
  return lines.join('\n');
}

/** The prompt text: what a reflection is, how to answer, then each unanswered candidate with its actions. */
export function reflectPromptText(
  candidates: readonly ReflectCandidateWithActions[],
  options: ReflectPromptOptions,
): string {
  const open = candidates.filter((c) => !options.answered?.has(c.memory.id));
  if (open.length === 0) return `Reflection over store "${options.store}": nothing left to review.`;
  const mcp = options.speaksTo === 'mcp';
  const fields = `{ reflectionId: "${options.reflectionId}", memoryId, action, why }`;
  const answerWith = mcp ? `the reflect_answer tool: ${fields}` : `answerReflection(input: ${fields})`;
  const opener = mcp ? 'reflect_session' : 'reflectSession';
  const how = options.reflectionId
    ? [
        `Answer each one with ${answerWith}, one answer per memory.`,
        'Say why in your own words: the answer and the reason are kept as an event on the memory.',
        'RECLASSIFY may name another tier ("tier"); ASSOCIATE and CONSOLIDATE may name other memories ("with"); ' +
          'ASSOCIATE may choose the link type ("associationType"); CONSOLIDATE may choose a "strategy" (COMBINE by ' +
          'default; SUMMARIZE needs your summary as "content"); FORGET needs your explicit consent ("confirmId" ' +
          'repeating the memory id) and cannot be undone.',
      ]
    : [`Open a reflection (${opener}) to answer these; nothing changes until you do.`];
  return [
    `Reflection over store "${options.store}": ${open.length} memor${open.length === 1 ? 'y' : 'ies'} to review.`,
    'For each, decide what it is to you now: keep it close (CLAIM), move it (RECLASSIFY), connect it (ASSOCIATE), ' +
      'merge it with its near-duplicates (CONSOLIDATE), let it go for good (FORGET), or leave it as it is (KEEP).',
    ...how,
    '',
    ...open.map((c, i) => candidateBlock(c, i + 1)),
  ].join('\n');
}

/** The same as prompt messages, for an MCP prompt (or any chat-shaped client). */
export function reflectPrompt(
  candidates: readonly ReflectCandidateWithActions[],
  options: ReflectPromptOptions,
): ReflectPrompt {
  return {
    description: `Review ${candidates.length} memories of store "${options.store}" and answer each`,
    messages: [{ role: 'user', content: { type: 'text', text: reflectPromptText(candidates, options) } }],
  };
}
