/** Input rules for new memories: pure functions, tested without a database. */
import {
  hasControlCharacter,
  InvalidInputError,
  isName,
  isTier,
  jsonArgumentText,
  NAME_CHARACTERS,
  newMemoryId,
  NOT_WELL_FORMED,
  type NewMemory,
  type StoreRequest,
} from '../../domain/index.js';

export interface StoreLimits {
  readonly defaultStore: string;
  readonly maxContentBytes: number;
  readonly maxBatch: number;
  readonly embeddingDimensions: number;
}

export const MAX_LABELS = 64;
export const MAX_LABEL_CHARS = 200;
export const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_ID_CHARS = 200;

const invalid = (code: string, message: string, details?: Record<string, unknown>) =>
  new InvalidInputError(`HIPPOCAMPUS.${code}`, message, details);

/** Trims, drops empties and duplicates, keeps first-seen order. */
export function normaliseLabels(values: readonly string[] | null | undefined, field: string): string[] {
  const out: string[] = [];
  for (const raw of values ?? []) {
    const value = String(raw).trim();
    if (value === '' || out.includes(value)) continue;
    if (value.length > MAX_LABEL_CHARS)
      throw invalid('LABEL_TOO_LONG', `a ${field} entry is longer than ${MAX_LABEL_CHARS} characters`, { field });
    if (hasControlCharacter(value))
      throw invalid('INVALID_LABEL', `a ${field} entry holds a control character (a newline, a tab…)`, { field });
    if (!value.isWellFormed()) throw invalid('INVALID_LABEL', `a ${field} entry ${NOT_WELL_FORMED}`, { field });
    out.push(value);
  }
  if (out.length > MAX_LABELS)
    throw invalid('TOO_MANY_LABELS', `at most ${MAX_LABELS} ${field} per memory, got ${out.length}`, { field });
  return out;
}

export function validateContent(content: unknown, maxBytes: number): string {
  if (typeof content !== 'string' || content.trim() === '') throw invalid('CONTENT_EMPTY', 'content must not be empty');
  checkWellFormedContent(content);
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > maxBytes)
    throw invalid('CONTENT_TOO_LARGE', `content is ${bytes} bytes; the maximum is ${maxBytes}`, { bytes, maxBytes });
  return content;
}

/** Content stored exactly as given (a store's, a consolidation's summary). */
export function checkWellFormedContent(content: string): void {
  if (!content.isWellFormed()) throw invalid('INVALID_CONTENT', `content ${NOT_WELL_FORMED}`);
}

export function validateStoreName(store: string | null | undefined, fallback: string): string {
  const name = (store ?? fallback).trim();
  if (!isName(name, MAX_ID_CHARS)) {
    throw invalid('INVALID_STORE', `store must be a non-empty name of at most 200 characters, ${NAME_CHARACTERS}`);
  }
  return name;
}

export function validateId(id: string | null | undefined): string {
  if (id === null || id === undefined) return newMemoryId();
  const trimmed = id.trim();
  if (!isName(trimmed, MAX_ID_CHARS)) {
    throw invalid('INVALID_ID', `id must be a non-empty string of at most 200 characters, ${NAME_CHARACTERS}`);
  }
  return trimmed;
}

/** The session a memory was stored in, if any: empty means none. */
export function validateMemorySessionId(sessionId: string | null | undefined): string | null {
  const trimmed = sessionId?.trim() ?? '';
  if (trimmed === '') return null;
  if (!isName(trimmed, MAX_ID_CHARS)) {
    throw invalid('INVALID_SESSION_ID', `sessionId must be at most 200 characters, ${NAME_CHARACTERS}`);
  }
  return trimmed;
}

/** Metadata as JSON text, for a store and a reclassify alike: within the caps of any JSON argument, then its own. */
export function validateMetadata(metadata: unknown): string | null {
  if (metadata === undefined || metadata === null) return null;
  const text = jsonArgumentText(metadata);
  if (Buffer.byteLength(text, 'utf8') > MAX_METADATA_BYTES)
    throw invalid('METADATA_TOO_LARGE', `metadata is larger than ${MAX_METADATA_BYTES} bytes as JSON`);
  return text;
}

function validateEmbedding(embedding: readonly number[] | null | undefined, dimensions: number): number[] | null {
  if (embedding === null || embedding === undefined) return null;
  if (embedding.length !== dimensions)
    throw invalid('EMBEDDING_DIMENSION', `embedding must have ${dimensions} numbers, got ${embedding.length}`);
  if (!embedding.every((x) => Number.isFinite(x)))
    throw invalid('EMBEDDING_NOT_FINITE', 'embedding must contain finite numbers only');
  // Cosine similarity divides by the norm: an all-zero vector compares to nothing.
  if (!embedding.some((x) => x !== 0))
    throw invalid('EMBEDDING_ZERO', 'embedding must not be all zeros (its norm must be above 0)');
  return [...embedding];
}

/**
 * How far past this service's clock a memory may say it happened: a client's clock may be off, not by days. A memory
 * dated in the future would sort first among equals for good and fall in every window that reaches that date.
 */
export const OCCURRED_AHEAD_MS = 24 * 3600 * 1000;

export function validateNewMemory(request: StoreRequest, limits: StoreLimits, now: number): NewMemory {
  const tier = request.tier ?? 'LONG_TERM';
  if (!isTier(tier)) throw invalid('UNKNOWN_TIER', `unknown tier "${tier}"`);
  const occurredAt = request.occurredAt ?? now;
  if (!Number.isFinite(occurredAt)) throw invalid('INVALID_TIME', 'occurredAt must be a valid time');
  if (occurredAt > now + OCCURRED_AHEAD_MS)
    throw invalid(
      'INVALID_TIME',
      `occurredAt ${new Date(occurredAt).toISOString()} is in the future: it says when the memory happened ` +
        "(at most a day past this service's clock)",
    );
  return {
    id: validateId(request.id),
    store: validateStoreName(request.store, limits.defaultStore),
    content: validateContent(request.content, limits.maxContentBytes),
    tier,
    tags: normaliseLabels(request.tags, 'tags'),
    people: normaliseLabels(request.people, 'people'),
    emotions: normaliseLabels(request.emotions, 'emotions'),
    metadata: validateMetadata(request.metadata),
    occurredAt,
    sessionId: validateMemorySessionId(request.sessionId),
    embedding: validateEmbedding(request.embedding, limits.embeddingDimensions),
  };
}

/**
 * Validates a whole batch before anything is written: one memory per input, in
 * order. The same client id twice in one batch is allowed only for identical
 * inputs (a retry inside a batch): the write gate writes it once and answers
 * each input with it, so the answer lines up with the inputs.
 */
export function validateBatch(requests: readonly StoreRequest[], limits: StoreLimits, now: number): NewMemory[] {
  if (requests.length === 0) throw invalid('EMPTY_BATCH', 'nothing to store');
  if (requests.length > limits.maxBatch) {
    throw invalid('BATCH_TOO_LARGE', `at most ${limits.maxBatch} memories per call, got ${requests.length}`, {
      max: limits.maxBatch,
    });
  }
  const firstIndexOf = new Map<string, number>();
  const memories: NewMemory[] = [];
  for (const [index, request] of requests.entries()) {
    let memory: NewMemory;
    try {
      memory = validateNewMemory(request, limits, now);
    } catch (error) {
      if (error instanceof InvalidInputError && requests.length > 1) throw atBatchIndex(error, index);
      throw error;
    }
    const firstIndex = firstIndexOf.get(memory.id);
    // Compared whole (labels, tier, metadata, time…): no input may be silently dropped for another.
    if (firstIndex !== undefined && JSON.stringify(memories[firstIndex]) !== JSON.stringify(memory))
      throw invalid('ID_CONFLICT', `memories ${firstIndex} and ${index} of the batch have id ${memory.id} but differ`, {
        id: memory.id,
        index,
        firstIndex,
      });
    if (firstIndex === undefined) firstIndexOf.set(memory.id, index);
    memories.push(memory);
  }
  return memories;
}

/** A batch's error, naming the memory of the batch it is about. */
export function atBatchIndex(error: InvalidInputError, index: number): InvalidInputError {
  return new InvalidInputError(error.code, `memory ${index}: ${error.message}`, { ...error.details, index });
}

export function sameMemory(a: Pick<NewMemory, 'store' | 'content'>, b: Pick<NewMemory, 'store' | 'content'>): boolean {
  return a.store === b.store && a.content === b.content;
}

export function validateReason(reason: unknown): string {
  if (typeof reason !== 'string' || reason.trim() === '')
    throw invalid('REASON_REQUIRED', 'a non-empty reason is required');
  if (reason.length > 4000) throw invalid('REASON_TOO_LONG', 'reason must be at most 4000 characters');
  if (!reason.isWellFormed()) throw invalid('INVALID_REASON', `reason ${NOT_WELL_FORMED}`);
  return reason.trim();
}
