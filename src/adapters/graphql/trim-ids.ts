/**
 * Every `ID` argument of a query, mutation or subscription trimmed before its resolver sees it, in input objects and
 * lists too: `store` keeps the id it is given trimmed, so " mem_1 " must name mem_1 in every other call as well (the
 * MCP tools trim theirs). The root resolver classes use it (a global middleware would also wrap every plain field).
 */
import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  type GraphQLInputType,
  type GraphQLResolveInfo,
} from 'graphql';
import type { MiddlewareFn } from 'type-graphql';

function trimmed(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const bare = getNullableType(type);
  if (isListType(bare)) return Array.isArray(value) ? value.map((v) => trimmed(v, bare.ofType)) : value;
  if (isInputObjectType(bare)) {
    if (typeof value !== 'object') return value;
    const fields = bare.getFields();
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [name, field] of Object.entries(fields)) if (name in out) out[name] = trimmed(out[name], field.type);
    return out;
  }
  return getNamedType(bare).name === 'ID' && typeof value === 'string' ? value.trim() : value;
}

/** Only the root fields take ids from the caller; nested fields' arguments are limits and the like. */
function rootArgs(info: GraphQLResolveInfo) {
  const roots = [info.schema.getQueryType(), info.schema.getMutationType(), info.schema.getSubscriptionType()];
  return roots.includes(info.parentType) ? (info.parentType.getFields()[info.fieldName]?.args ?? []) : [];
}

export const trimIds: MiddlewareFn = async ({ args, info }, next) => {
  for (const arg of rootArgs(info)) if (arg.name in args) args[arg.name] = trimmed(args[arg.name], arg.type);
  return next();
};
