/** JSON kept as text on nodes (metadata, payloads, state) read back as a value. */
export function parseJsonText(raw: unknown): unknown {
  if (typeof raw !== 'string') return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
