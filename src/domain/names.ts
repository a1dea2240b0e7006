/**
 * Whether a name (a store, an id, a label) holds a control character — a
 * newline, a tab, a NUL: a client's bug, never a name someone chose, and
 * invisible once written.
 */
export function hasControlCharacter(name: string): boolean {
  return /\p{Cc}/u.test(name);
}

/**
 * What a name must not hold besides control characters: invisible format characters (U+200B, U+202E…), which make
 * two different names look the same, and the line and paragraph separators U+2028 and U+2029.
 */
const UNSEEN_IN_NAME = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** What a refused name's message says it must avoid. */
export const NAME_CHARACTERS = 'without control or invisible characters and with no lone surrogate';

/**
 * A usable name or id (already trimmed): not empty, at most `maxChars`, well-formed (a lone surrogate would be
 * stored as U+FFFD, another name), nothing unseen.
 */
export function isName(name: string, maxChars: number): boolean {
  return name !== '' && name.length <= maxChars && name.isWellFormed() && !UNSEEN_IN_NAME.test(name);
}

/** What a refused text's message says of a lone surrogate (half of a UTF-16 pair): Neo4j would store U+FFFD. */
export const NOT_WELL_FORMED = 'holds a lone surrogate (half of a UTF-16 pair), which cannot be stored as given';
