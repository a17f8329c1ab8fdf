import type { Guard, ModelGuard, PlainGuard } from './guard.ts';

/**
 * The four flags of an attribute, each `true`, `false` or a guard: listed in an attribute's `only`
 * or `except`.
 */
export type AttributeFlag = 'readable' | 'writable' | 'sortable' | 'filterable';
export const ATTRIBUTE_FLAGS: readonly AttributeFlag[] = ['readable', 'writable', 'sortable', 'filterable'];

/** Computes an attribute's rendered value from its model `M`; `this` is the Resource `I`. */
export type AttributeBlock<M = never, I = never> = (this: I, model: M, resource: I) => unknown;

/** `attribute(name, type, options)`; `I` is the declaring Resource, `M` its model. */
export interface AttributeOptions<I = never, M = never> {
  readable?: ModelGuard<I, M>;
  writable?: ModelGuard<I, M>;
  /** Decided before any record is loaded, so the guard takes no arguments. */
  sortable?: PlainGuard<I>;
  filterable?: PlainGuard<I> | 'required';
  schema?: boolean;
  /** Enables only these flags (schema excepted). */
  only?: readonly AttributeFlag[];
  /** Disables these flags (schema excepted). */
  except?: readonly AttributeFlag[];
  /** Accepted values; required for enum types. */
  allow?: readonly unknown[];
  description?: string;
  /**
   * Not a member of the model: its records carry it by other means (a
   * custom `resolve`, a base scope selecting an expression, a hook reading
   * the written value), so `checkResources` does not look for it on the model.
   */
  virtual?: boolean;
}

/** One declared attribute, as every stage reads it. */
export interface AttributeDefinition {
  readonly name: string;
  readonly type: string;
  readonly readable: Guard;
  readonly writable: Guard;
  readonly sortable: Guard;
  readonly filterable: Guard | 'required';
  readonly schema: boolean;
  /** Rendered only when asked for through `extra_fields`. */
  readonly extra: boolean;
  readonly allow?: readonly unknown[];
  readonly description?: string;
  readonly block?: AttributeBlock;
  /** Declared `virtual: true`: on the records, though not on the model. */
  readonly virtual?: boolean;
}

export interface AttributeDefaults {
  readable: Guard;
  writable: Guard;
  sortable: Guard;
  filterable: Guard;
  schema: boolean;
}

export function buildAttribute(
  name: string,
  type: string,
  options: AttributeOptions,
  defaults: AttributeDefaults,
  extra: boolean,
  block?: AttributeBlock,
): AttributeDefinition {
  // what no column holds (a block computes it, or the records carry it another way) cannot be filtered or
  // sorted by the database: only when asked for (an option, `only`, or a filter or sort of its own)
  const computed = block !== undefined || options.virtual === true;
  const askedFor = (flag: 'sortable' | 'filterable') => !computed || options.only?.includes(flag) === true;
  const flags: Record<AttributeFlag, Guard | 'required'> = {
    readable: options.readable ?? defaults.readable,
    writable: options.writable ?? defaults.writable,
    sortable: options.sortable ?? (askedFor('sortable') ? defaults.sortable : false),
    filterable: options.filterable ?? (askedFor('filterable') ? defaults.filterable : false),
  };
  if (options.only) {
    for (const flag of ATTRIBUTE_FLAGS) if (!options.only.includes(flag)) flags[flag] = false;
  }
  if (options.except) {
    for (const flag of options.except) flags[flag] = false;
  }
  return {
    name,
    type,
    readable: flags.readable as Guard,
    writable: extra ? false : (flags.writable as Guard),
    sortable: flags.sortable as Guard,
    filterable: flags.filterable,
    schema: options.schema ?? defaults.schema,
    extra,
    allow: options.allow,
    description: options.description,
    block,
    // only when declared, so definitions compare equal to those written before the option existed
    ...(options.virtual && { virtual: true }),
  };
}
