// How a statement's parameters travel to Neo4j (toNeo4jParams in the graph adapter).
import { describe, expect, it } from 'vitest';
import neo4j from 'neo4j-driver';
import { toNeo4jParams } from '../../src/adapters/neo4j/testing.js';

describe('statement parameters', () => {
  it('sends integral numbers as integers and other numbers as floats', () => {
    expect(toNeo4jParams(42)).toEqual(neo4j.int(42));
    expect(toNeo4jParams(0.5)).toBe(0.5);
    expect(toNeo4jParams({ limit: 10, at: [1, 2] })).toEqual({ limit: neo4j.int(10), at: [1, 2] });
  });

  it('sends a question vector (Float32Array) as a Bolt vector of the same floats, and a list as a list', () => {
    const question = new Float32Array([0.25, -0.5, 0.125]);
    const sent = toNeo4jParams({ vector: question, embedding: [0.25, -0.5, 0.125] }) as Record<string, unknown>;
    expect(neo4j.isVector(sent.vector)).toBe(true);
    expect(Array.from((sent.vector as { asTypedArray(): Float32Array }).asTypedArray())).toEqual([0.25, -0.5, 0.125]);
    expect(Array.isArray(sent.embedding)).toBe(true);
  });
});
