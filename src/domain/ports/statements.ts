/**
 * The Cypher registry, as a context sees it: every statement is a file
 * `cypher/<context>/<name>.cypher` whose header declares `// params: $a, $b`
 * and `// returns: x, y`. A context names its statements once (its cypher.ts);
 * the graph adapter reads each file, sends its body and refuses a call whose
 * params differ from the header.
 */

/** A registered statement: the file under `cypher/` that holds it. */
export interface Statement {
  readonly file: string;
}

const declared = new Set<string>();

/** A context's statements: `declareStatements('hippocampus', { storeMemories: 'store-memories' })`. */
export function declareStatements<K extends string>(context: string, names: Record<K, string>): Record<K, Statement> {
  const out = {} as Record<K, Statement>;
  for (const key of Object.keys(names) as K[]) {
    const file = `${context}/${names[key]}.cypher`;
    out[key] = Object.freeze({ file });
    declared.add(file);
  }
  return out;
}

/** Files declared so far (the registry test compares them with the disk). */
export function declaredFiles(): ReadonlySet<string> {
  return declared;
}
