/**
 * Whether a name (a store, an id, a label) holds a control character — a
 * newline, a tab, a NUL: a client's bug, never a name someone chose, and
 * invisible once written.
 */
export function hasControlCharacter(name: string): boolean {
  return /\p{Cc}/u.test(name);
}
