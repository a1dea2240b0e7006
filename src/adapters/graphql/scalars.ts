/** DateTime (ISO-8601 out, ISO-8601 or epoch ms in) and JSON scalars. */
import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { GraphQLJSON } from 'graphql-scalars';

function toMillis(value: unknown): number {
  const ms = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) {
    throw new GraphQLError('DateTime must be an ISO-8601 string such as 2026-05-01T12:00:00Z', { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return ms;
}

/** Internally a DateTime is epoch milliseconds. */
export const DateTimeScalar = new GraphQLScalarType<number, string>({
  name: 'DateTime',
  description: 'A point in time, ISO-8601 (UTC) in results; ISO-8601 strings accepted as input.',
  serialize: (value) => new Date(value instanceof Date ? value.getTime() : toMillis(value)).toISOString(),
  parseValue: (value) => toMillis(value),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime literals must be strings', { extensions: { code: 'BAD_USER_INPUT' } });
    return toMillis(ast.value);
  },
});

export const JSONScalar = GraphQLJSON;
