/**
 * A version 1 cold-storage file made from a version 2 full export of the same
 * graph (float lists as JSON numbers, no chain fields), with its own sha256
 * and digest: what an export written before version 2 looks like.
 */
import { createHash } from 'node:crypto';
import {
  GraphDigest,
  decodeProps,
  encodeProps,
  type Header,
  type Line,
  type Trailer,
} from '../src/adapters/cold-storage/testing.js';

export function asVersion1(text: string): string {
  const lines = text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Line);
  const digest = new GraphDigest();
  const out: string[] = [];
  for (const line of lines) {
    if (line.type === 'header') {
      const { kind: _k, previous: _p, since: _s, until: _u, ...rest } = line as Header;
      out.push(JSON.stringify({ ...rest, version: 1 }));
    } else if (line.type === 'node' || line.type === 'relationship') {
      const v1 = { ...line, ...encodeProps(decodeProps(line.props, line.types), 'v1', 1) };
      if (v1.type === 'node') digest.node(v1);
      else digest.relationship(v1);
      out.push(JSON.stringify(v1));
    }
  }
  const body = `${out.join('\n')}\n`;
  const trailer: Trailer = {
    type: 'trailer',
    counts: digest.counts(),
    digest: digest.digest(),
    sha256: createHash('sha256').update(body).digest('hex'),
  };
  return `${body}${JSON.stringify(trailer)}\n`;
}
