/**
 * Whether a name (a store, an id, a label) holds a control character — a
 * newline, a tab, a NUL: a client's bug, never a name someone chose, and
 * invisible once written.
 */
export function hasControlCharacter(name: string): boolean {
  return /\p{Cc}/u.test(name);
}

/** A usable name or id (already trimmed): not empty, at most `maxChars`, no control characters. */
export function isName(name: string, maxChars: number): boolean {
  return name !== '' && name.length <= maxChars && !hasControlCharacter(name);
}
