/**
 * Settings declared once: each one names its environment variable, default,
 * unit, accepted values and meaning. Every context declares its own schema with
 * these builders, `readSettings` parses them all the same way (zod), and the
 * README's configuration table is generated from the same declarations.
 * A bad value stops the start with a ConfigError that names the variable.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from './errors.js';

/** What a path setting's default is resolved against. */
export interface SettingsContext {
  /** TOTAL_RECALL_DATA, resolved: default paths live under it. */
  readonly dataDir: string;
  /** The whole environment, for a default that follows another setting. */
  readonly env: NodeJS.ProcessEnv;
}

type Default<T> = T | ((context: SettingsContext) => T);

export interface Setting<T> {
  /** The environment variable. */
  readonly env: string;
  /** The default as the README shows it. */
  readonly shown: string;
  readonly unit: string;
  /** The values accepted, in words (the README's column and the error message). */
  readonly accepts: string;
  readonly description: string;
  /** The value of the variable (unset or empty: the default); throws ConfigError when it cannot be used. */
  read(raw: string | undefined, context: SettingsContext, key?: string): T;
}

export type Schema = Readonly<Record<string, Setting<unknown>>>;
export type SettingsOf<S extends Schema> = { readonly [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

interface Common {
  readonly description: string;
  readonly unit?: string;
  /** The default in the README's words, when it is computed rather than fixed. */
  readonly shown?: string;
}

/** Unset or empty: the default (a value of spaces is a value, and is refused when it does not fit). */
const blank = (raw: string | undefined): raw is undefined => raw === undefined || raw === '';

function refuse(env: string, key: string | undefined, accepts: string, raw: string): ConfigError {
  const named = key ? `${env} (${key})` : env;
  return new ConfigError(`CONFIG.${env}`, `${named} must be ${accepts}, got "${raw}"`, { variable: env });
}

function setting<T>(
  env: string,
  options: Common & {
    readonly accepts: string;
    readonly fallback: (context: SettingsContext) => T;
    shownDefault: string;
  },
  schema: z.ZodType<T>,
  prepare: (raw: string) => unknown = (raw) => raw.trim(),
): Setting<T> {
  return {
    env,
    shown: options.shown ?? options.shownDefault,
    unit: options.unit ?? '',
    accepts: options.accepts,
    description: options.description,
    read(raw, context, key) {
      if (blank(raw)) return options.fallback(context);
      const parsed = schema.safeParse(prepare(raw));
      if (!parsed.success) throw refuse(env, key, options.accepts, raw);
      return parsed.data;
    },
  };
}

const fixed =
  <T>(value: Default<T>) =>
  (context: SettingsContext): T =>
    typeof value === 'function' ? (value as (context: SettingsContext) => T)(context) : value;

interface NumberOptions extends Common {
  readonly default: Default<number>;
  readonly min?: number;
  readonly max?: number;
}

/** A whole number, at least `min` (default 1: a positive integer). */
export function integer(env: string, options: NumberOptions): Setting<number> {
  const min = options.min ?? 1;
  const { max } = options;
  const accepts =
    max !== undefined
      ? `an integer from ${min} to ${max}`
      : min === 1
        ? 'a positive integer'
        : `an integer of at least ${min}`;
  let schema = z.number().int().min(min);
  if (max !== undefined) schema = schema.max(max);
  return setting(
    env,
    { ...options, accepts, fallback: fixed(options.default), shownDefault: String(options.default) },
    schema,
    Number,
  );
}

interface DecimalOptions extends NumberOptions {
  /** Bounds left out of the accepted range: `(0,1]` is min 0 with `above: true`. */
  readonly above?: boolean;
  readonly below?: boolean;
  /** The variable is in `unit`; the value is this many times larger (hours to milliseconds, say). */
  readonly scale?: number;
}

/** A finite number in a range, e.g. a fraction in (0,1]. */
export function decimal(env: string, options: DecimalOptions): Setting<number> {
  const { min, max, above = false, below = false, scale = 1 } = options;
  const low = min === undefined ? '' : above ? `(${min}` : `[${min}`;
  const high = max === undefined ? '' : below ? `${max})` : `${max}]`;
  const accepts =
    min === undefined && max === undefined
      ? 'a number'
      : max === undefined
        ? `a number ${above ? 'above' : 'of at least'} ${min}`
        : min === undefined
          ? `a number ${below ? 'below' : 'of at most'} ${max}`
          : `a number in ${low},${high}`;
  let schema = z.number().finite();
  if (min !== undefined) schema = above ? schema.gt(min) : schema.gte(min);
  if (max !== undefined) schema = below ? schema.lt(max) : schema.lte(max);
  const scaled = schema.transform((value) => value * scale);
  const fallback = (context: SettingsContext) => fixed(options.default)(context) * scale;
  return setting(env, { ...options, accepts, fallback, shownDefault: String(options.default) }, scaled, Number);
}

const ON = ['on', 'true', '1', 'yes'];
const OFF = ['off', 'false', '0', 'no'];

/** on/off (also true/false, 1/0, yes/no). */
export function flag(env: string, options: Common & { readonly default: Default<boolean> }): Setting<boolean> {
  const schema = z.enum([...ON, ...OFF]).transform((word) => ON.includes(word));
  const shownDefault = typeof options.default === 'boolean' ? (options.default ? 'on' : 'off') : '';
  return setting(
    env,
    { ...options, accepts: 'on or off', fallback: fixed(options.default), shownDefault },
    schema,
    (raw) => raw.trim().toLowerCase(),
  );
}

/** One of a few words. */
export function choice<const W extends string>(
  env: string,
  words: readonly [W, ...W[]],
  options: Common & { readonly default: Default<W> },
): Setting<W> {
  const accepts = `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
  const shownDefault = typeof options.default === 'string' ? options.default : '';
  return setting(
    env,
    { ...options, accepts, fallback: fixed(options.default), shownDefault },
    z.enum(words) as unknown as z.ZodType<W>,
    (raw) => raw.trim().toLowerCase(),
  );
}

/** Free text (a name, a URL); unset gives the default (empty: the caller computes one). */
export function text(env: string, options: Common & { readonly default: string }): Setting<string> {
  return setting(
    env,
    { ...options, accepts: 'text', fallback: fixed(options.default), shownDefault: options.default || 'unset' },
    z.string().min(1),
    (raw) => raw, // as given: a password or a prefix keeps its spaces
  );
}

/** A comma list; unset or empty is null ("no list"). */
export function list(env: string, options: Common): Setting<readonly string[] | null> {
  const schema = z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .transform((items) => (items.length > 0 ? items : null));
  return setting(env, { ...options, accepts: 'a comma list', fallback: () => null, shownDefault: 'empty' }, schema);
}

/**
 * A file or folder. Every path resolves one way: a value given is taken from
 * the working directory; the default lies under the data folder.
 */
export function path(
  env: string,
  options: Common & { readonly default: (context: SettingsContext) => string; readonly shown: string },
): Setting<string> {
  return setting(
    env,
    { ...options, accepts: 'a path', fallback: (context) => resolve(options.default(context)), shownDefault: '' },
    z
      .string()
      .min(1)
      .transform((raw) => resolve(raw)),
    (raw) => raw,
  );
}

/** Reads every setting of a schema from the environment. */
export function readSettings<S extends Schema>(
  schema: S,
  env: NodeJS.ProcessEnv,
  context: SettingsContext = { dataDir: resolve('.data'), env },
): SettingsOf<S> {
  const values: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(schema)) values[key] = s.read(env[s.env], context, key);
  return values as SettingsOf<S>;
}
