/**
 * Cold storage without a database: vectors as base64 (float32 when lossless,
 * else float64, bit for bit), and a chain of files — found from a folder,
 * resolved to the graph it ends in (last versions, deleted nodes and replaced
 * relationships gone, relabelled ends renamed, older files' derived memory
 * properties left out), refused when a link is missing or a file damaged.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DERIVED_MEMORY_PROPERTIES,
  FLOAT32_VECTOR,
  FLOAT64_VECTOR,
  FORMAT_VERSION,
  GraphDigest,
  keptProps,
  ChainError,
  chainOf,
  decodeProps,
  decodeVector,
  encodeProps,
  encodeVector,
  resolveChain,
  type Header,
  type NodeLine,
  type RelationshipLine,
} from '../../src/adapters/cold-storage/testing.js';

describe('vectors', () => {
  it('are float32 base64 when every value is a float32, exactly', () => {
    const values = [0.25, -1.5, Math.fround(0.1), Math.fround(-1e-30), 0, -0];
    const [text, type] = encodeVector(values);
    expect(type).toBe(FLOAT32_VECTOR);
    expect(Buffer.from(text, 'base64').length).toBe(values.length * 4);
    const back = decodeVector(text, type);
    expect(back.every((v, i) => Object.is(v, values[i]))).toBe(true);
  });

  it('are float64 base64 otherwise, bit for bit (NaN and infinities too)', () => {
    const values = [0.1, Math.PI, -1 / 3, Number.MAX_VALUE, Number.MIN_VALUE, Infinity, -Infinity];
    const [text, type] = encodeVector([...values, NaN]);
    expect(type).toBe(FLOAT64_VECTOR);
    const back = decodeVector(text, type);
    expect(back.slice(0, -1).every((v, i) => Object.is(v, values[i]))).toBe(true);
    expect(Number.isNaN(back.at(-1))).toBe(true);
  });

  it('are how version 2 writes a float list property; version 1 keeps JSON numbers; both decode the same', () => {
    const props = { embedding: [0.5, 0.25], tags: ['a'], empty: [] };
    const v2 = encodeProps(props, 'test');
    expect(v2.types).toEqual({ embedding: FLOAT32_VECTOR });
    expect(typeof v2.props.embedding).toBe('string');
    const v1 = encodeProps(props, 'test', 1);
    expect(v1.props.embedding).toEqual([0.5, 0.25]);
    expect(decodeProps(v2.props, v2.types)).toEqual(decodeProps(v1.props, v1.types));
  });

  it('refuses a vector whose bytes are not a whole number of values', () => {
    expect(() => decodeVector(Buffer.alloc(6).toString('base64'), FLOAT32_VECTOR)).toThrow(/6 bytes/);
  });
});

// ── chains ──────────────────────────────────────────────────────────────────

const dirs: string[] = [];
let written = 0;
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const node = (labels: string[], id: string, extra: Record<string, unknown> = {}): NodeLine => ({
  type: 'node',
  ref: `${[...labels].sort().join(':')}#${id}`,
  labels: [...labels].sort(),
  props: { id, ...extra } as NodeLine['props'],
  types: {},
});
const rel = (rel: string, start: NodeLine, end: NodeLine): RelationshipLine => ({
  type: 'relationship',
  rel,
  start: start.ref,
  end: end.ref,
  props: {},
  types: {},
});

/** A cold-storage file as the writer makes it: header, records, trailer with sha256, counts and digest. */
async function file(
  dir: string,
  name: string,
  fields: Partial<Header>,
  records: (NodeLine | RelationshipLine | { type: 'deleted'; key: string })[],
): Promise<{ path: string; sha256: string }> {
  const header: Header = {
    type: 'header',
    format: 'total-recall-cold-storage',
    version: 2,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, ++written)).toISOString(),
    service: 'test',
    scope: { stores: null },
    ...fields,
  };
  const digest = new GraphDigest();
  let deleted = 0;
  for (const r of records) {
    if (r.type === 'node') digest.node(r);
    else if (r.type === 'relationship') digest.relationship(r);
    else deleted++;
  }
  const body = [header, ...records].map((l) => `${JSON.stringify(l)}\n`).join('');
  const sha256 = createHash('sha256').update(body).digest('hex');
  const trailer = {
    type: 'trailer',
    counts: digest.counts(),
    ...(fields.kind === 'delta' ? { deleted } : {}),
    digest: digest.digest(),
    sha256,
  };
  const path = join(dir, name);
  await writeFile(path, `${body}${JSON.stringify(trailer)}\n`);
  return { path, sha256 };
}

describe('a chain', () => {
  const a = node(['Memory', 'LONG_TERM'], 'a', { n: 1 });
  const b = node(['Memory', 'LONG_TERM'], 'b');
  const c = node(['Memory', 'LONG_TERM'], 'c');
  const e = node(['Event'], 'e');

  async function threeFiles() {
    const dir = await mkdtemp(join(tmpdir(), 'cold-chain-'));
    dirs.push(dir);
    const full = await file(dir, '1.ndjson', { kind: 'full', until: 100 }, [
      a,
      b,
      c,
      e,
      rel('THEMATIC', a, b),
      rel('THEMATIC', b, c),
      rel('ABOUT', e, c),
    ]);
    // a changes (a property) and loses its link to b; c is forgotten.
    const a2 = node(['Memory', 'LONG_TERM'], 'a', { n: 2 });
    const d1 = await file(dir, '2-delta.ndjson', { kind: 'delta', previous: full.sha256, since: 100, until: 200 }, [
      { type: 'deleted', key: '#c' },
      a2,
    ]);
    // b moves to another tier (a new label) and links to a; a new memory d.
    const b3 = node(['Memory', 'ACTIVE_CONTEXT'], 'b');
    const d = node(['Memory', 'ACTIVE_CONTEXT'], 'd');
    const d2 = await file(dir, '3-delta.ndjson', { kind: 'delta', previous: d1.sha256, since: 200, until: 300 }, [
      b3,
      d,
      rel('CAUSAL', b3, a2),
    ]);
    return { dir, full, d1, d2, a2, b3, d };
  }

  it('is found from its folder (newest file back to the full export), resolves to the graph it ends in', async () => {
    const { dir, full, d1, d2, a2, b3, d } = await threeFiles();
    const chain = await chainOf(dir);
    expect(chain.map((f) => f.path)).toEqual([full.path, d1.path, d2.path]);
    expect((await chainOf(d1.path)).map((f) => f.path)).toEqual([full.path, d1.path]);
    const got = new GraphDigest(true);
    await resolveChain(chain, got);
    const want = new GraphDigest(true);
    for (const n of [a2, b3, d, e]) want.node(n);
    want.relationship(rel('CAUSAL', b3, a2));
    expect(got.records()).toEqual(want.records());
    expect(got.digest()).toBe(want.digest());
  });

  it("resolves an older file's memories in the current form: Salience's materialised score left out", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cold-chain-'));
    dirs.push(dir);
    const scored = node(['Memory', 'LONG_TERM'], 'm', { salience: 0.4, salienceAt: 5, content: 'kept' });
    const other = node(['Notification'], 'x', { salience: 0.9 });
    const full = await file(dir, '1.ndjson', { kind: 'full', until: 100 }, [scored, other]);
    const fresh = node(['Memory', 'LONG_TERM'], 'n', { content: 'new' });
    await file(dir, '2-delta.ndjson', { version: 3, kind: 'delta', previous: full.sha256, since: 100, until: 200 }, [
      fresh,
    ]);
    const got = new GraphDigest(true);
    await resolveChain(await chainOf(dir), got);
    const want = new GraphDigest(true);
    for (const n of [node(['Memory', 'LONG_TERM'], 'm', { content: 'kept' }), other, fresh]) want.node(n);
    expect(got.records()).toEqual(want.records());
    expect(keptProps(['Memory'], { salience: 1, salienceAt: 2, claimed: true }, FORMAT_VERSION)).toEqual({
      claimed: true,
    });
    expect(keptProps(['Memory'], { salience: 1 }, 2)).toEqual({ salience: 1 });
    expect(DERIVED_MEMORY_PROPERTIES).toEqual(['salience', 'salienceAt']);
  });

  it('is refused when a link is missing or a file does not match its trailer', async () => {
    const { dir, full, d2 } = await threeFiles();
    await rm(join(dir, '2-delta.ndjson'));
    await expect(chainOf(dir)).rejects.toThrow(/broken chain: .*3-delta\.ndjson follows the file with sha256/);
    await expect(chainOf(d2.path)).rejects.toThrow(/broken chain/);
    // A path that is not there is a bad argument (refused, exit 2), not a failure to retry.
    await expect(chainOf(join(dir, 'no-such.ndjson'))).rejects.toThrow(ChainError);
    await expect(chainOf(join(dir, 'no-such.ndjson'))).rejects.toThrow(/no-such\.ndjson does not exist/);

    const text = await readFile(full.path, 'utf8');
    await writeFile(full.path, text.replace('"n":1', '"n":7'));
    const damaged = await chainOf(full.path);
    await expect(resolveChain(damaged, new GraphDigest())).rejects.toThrow(
      /is not a complete, intact export: sha256 of the file does not match its trailer/,
    );
  });
});
