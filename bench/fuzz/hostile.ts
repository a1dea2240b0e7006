// Hostile requests generated from the schema: every root field, hostile argument values, random selections,
// aliases, broken bodies and bad tokens.
import {
  getNamedType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { rng } from '../lib.js';

/** What the fuzzer attacks: the stores by name, the tokens it may send, the ids it may name. */
export interface World {
  readonly victim: string;
  readonly attacker: string;
  readonly tokens: { readonly attacker: string; readonly attackerReader: string };
  readonly ids: {
    readonly victim: string[];
    readonly attacker: string[];
    readonly sessions: string[];
    readonly recalls: string[];
  };
}

export interface FuzzRequest {
  readonly token: string | null;
  readonly body: string;
  readonly mutation: boolean;
  readonly refusedCheck: boolean;
}

/** A seeded generator of hostile requests against `schema`. */
export function requestGenerator(schema: GraphQLSchema, { victim, attacker, tokens, ids }: World): () => FuzzRequest {
  const random = rng(22);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { d: nested(depth - 1) });

  const HOSTILE_STRINGS = [
    '',
    ' ',
    'x'.repeat(70_000),
    'a\u0000b',
    'line\nbreak',
    "' OR 1=1 //",
    '"}) MATCH (n) DETACH DELETE n //',
    'content:* OR storeKey:*',
    '*:*',
    '\\',
    '${jndi:ldap://x}',
    '🧠'.repeat(5000),
    '../../etc/passwd',
    '/tmp',
    '0',
    '-1',
    'null',
    '2026-02-30',
    victim,
    attacker,
    'default',
  ];

  /** While set, values stay small (the elements of a long list). */
  let compact = false;
  function smallValue(value: unknown): unknown {
    if (!compact) return value;
    if (typeof value === 'string') return value.length > 200 ? 'small' : value;
    return value !== null && typeof value === 'object' ? 'small' : value;
  }

  function hostileScalar(name: string): unknown {
    return smallValue(anyScalar(name));
  }

  function anyScalar(name: string): unknown {
    switch (name) {
      case 'String':
        return chance(0.3) ? `fuzz ${Math.floor(random() * 1e6)}` : pick(HOSTILE_STRINGS);
      case 'ID':
        return chance(0.5)
          ? pick([...ids.victim, ...ids.attacker, ...ids.sessions, ...ids.recalls])
          : pick(HOSTILE_STRINGS);
      case 'Int':
        return pick([0, -1, 1, 3, 1000, 2 ** 31, -(2 ** 53), 1e20, 1.5, '7', null]);
      case 'Float':
        return pick([0, -0, 1, 0.5, -1, 1e308, -1e308, 1e-320, 'NaN', null]);
      case 'Boolean':
        return pick([true, false, 'true', 0, null]);
      case 'DateTime':
        return pick([
          '2026-05-01T12:00:00Z',
          '2026-02-30',
          '2026-13-01',
          1e20,
          1700000000000,
          -1,
          '',
          'yesterday',
          '9999-12-31T23:59:59Z',
          '0000-01-01',
          null,
        ]);
      case 'JSON':
        return pick([
          { a: 1 },
          nested(50),
          nested(19),
          { big: 'x'.repeat(300_000) },
          [1, 2, 3],
          'text',
          42,
          null,
          Array.from({ length: 5000 }, (_, i) => i),
        ]);
      default:
        return pick(HOSTILE_STRINGS);
    }
  }

  function hostileValue(type: GraphQLInputType, depth = 0): unknown {
    if (chance(0.03)) return pick([null, 'wrong type', 12, [], {}]);
    if (isNonNullType(type)) return hostileValue(type.ofType as GraphQLInputType, depth);
    if (isListType(type)) {
      const n = pick([0, 1, 2, 5, chance(0.05) ? 1500 : 3]);
      // A long list holds small values: 1,500 elements of 300 kB each would be a 450 MB body the fuzzer spends
      // seconds building (the body limit is tested by the single large values).
      const wasCompact = compact;
      compact ||= n > 100;
      const items = Array.from({ length: n }, () => hostileValue(type.ofType as GraphQLInputType, depth + 1));
      compact = wasCompact;
      return items;
    }
    if (isEnumType(type)) return chance(0.9) ? pick(type.getValues()).name : 'NOT_A_VALUE';
    if (isInputObjectType(type)) {
      const out: Record<string, unknown> = {};
      for (const field of Object.values(type.getFields())) {
        if (isNonNullType(field.type) || chance(0.6)) out[field.name] = hostileValue(field.type, depth + 1);
      }
      if (chance(0.05)) out.unknownField = 'x';
      if (type.name === 'StoreInput' && chance(0.3))
        out.embedding = pick([Array(384).fill(0), Array(384).fill(1e308), Array(10).fill(0.1), Array(384).fill(0.05)]);
      return out;
    }
    if (isScalarType(type)) return hostileScalar(type.name);
    return null;
  }

  function selection(type: GraphQLObjectType, depth: number, maxDepth: number): string {
    const fields = Object.values(type.getFields());
    const chosen = fields.filter(() => chance(0.5));
    if (chosen.length === 0) chosen.push(fields[0] as GraphQLField<unknown, unknown>);
    return (
      chosen
        .map((f) => {
          const named = getNamedType(f.type);
          const args = f.args.filter((a) => isNonNullType(a.type) || chance(0.3));
          const argText = args.length ? `(${args.map((a) => `${a.name}: ${literal(a)}`).join(', ')})` : '';
          if (isObjectType(named))
            return depth >= maxDepth ? null : `${f.name}${argText} { ${selection(named, depth + 1, maxDepth)} }`;
          return `${f.name}${argText}`;
        })
        .filter((s): s is string => s !== null)
        .join(' ') || '__typename'
    );
  }

  /** A nested field's argument as a literal (no variables below the root). */
  function literal(arg: GraphQLArgument): string {
    const v = hostileValue(arg.type);
    if (isEnumType(getNamedType(arg.type)) && typeof v === 'string') return v;
    return JSON.stringify(
      typeof v === 'string' ? v.slice(0, 200) : typeof v === 'number' || typeof v === 'boolean' ? v : 1,
    );
  }

  const roots = [schema.getQueryType(), schema.getMutationType()].filter((t): t is GraphQLObjectType => Boolean(t));
  const rootFields = roots.flatMap((root) => Object.values(root.getFields()).map((field) => ({ root, field })));

  function generate(): FuzzRequest {
    const { root, field } = pick(rootFields);
    const op = root === schema.getMutationType() ? 'mutation' : 'query';
    const vars: Record<string, unknown> = {};
    const decls: string[] = [];
    const args: string[] = [];
    for (const arg of field.args) {
      if (!isNonNullType(arg.type) && chance(0.4)) continue;
      vars[arg.name] = hostileValue(arg.type);
      decls.push(`$${arg.name}: ${arg.type.toString()}`);
      args.push(`${arg.name}: $${arg.name}`);
    }
    const named = getNamedType(field.type);
    const maxDepth = chance(0.1) ? 12 : 3;
    const sel = isObjectType(named) ? ` { ${selection(named, 1, maxDepth)} }` : '';
    const aliases = chance(0.1) ? pick([2, 5, 16, 50]) : 1;
    const body = Array.from(
      { length: aliases },
      (_, i) => `${aliases > 1 ? `a${i}: ` : ''}${field.name}${args.length ? `(${args.join(', ')})` : ''}${sel}`,
    ).join(' ');
    const query = `${op}${decls.length ? ` (${decls.join(', ')})` : ''} { ${body} }`;
    const token = chance(0.9)
      ? tokens.attacker
      : pick([tokens.attackerReader, null, 'tr_0000000000_forged', `${tokens.attacker.slice(0, -2)}zz`]);
    const shape = random();
    const text =
      shape < 0.02
        ? '{ not json'
        : shape < 0.03
          ? JSON.stringify([{ query }, { query }])
          : shape < 0.035
            ? JSON.stringify({ query: 'x'.repeat(100) })
            : JSON.stringify({ query, variables: vars });
    return { token, body: text, mutation: op === 'mutation', refusedCheck: op === 'mutation' };
  }

  return generate;
}
