/**
 * Budgets of list fields read once per parent (Memory.associations, Memory.history): graphql-armor's cost ignores
 * limit arguments, so a field under a list, or nested in itself (association → other → associations), would multiply
 * them — three levels of limit 1000 read 10^9 rows in 10^6 queries. Each call counts its limit against its field's
 * budget for the request before it reads, so a refused request has read at most the budget.
 */
import { InvalidInputError } from '../../domain/index.js';
import type { GraphQLContext } from './context.js';

export const REQUEST_BUDGETS = { 'Memory.associations': 5000, 'Memory.history': 10000 } as const;
type Field = keyof typeof REQUEST_BUDGETS;

const asked = new WeakMap<GraphQLContext, Map<Field, number>>();

export function charge(ctx: GraphQLContext, field: Field, limit: number): void {
  const counts = asked.get(ctx) ?? new Map<Field, number>();
  asked.set(ctx, counts);
  // A limit out of range is refused by the port with its own INVALID_LIMIT.
  const total = (counts.get(field) ?? 0) + (Number.isInteger(limit) && limit > 0 ? limit : 0);
  if (total > REQUEST_BUDGETS[field])
    throw new InvalidInputError(
      'INVALID_LIMIT',
      `the limits of ${field} in one request add up to more than ${REQUEST_BUDGETS[field]}`,
    );
  counts.set(field, total);
}
