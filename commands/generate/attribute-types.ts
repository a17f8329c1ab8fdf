import { didYouMean } from '../../core/did-you-mean.ts';
import { Types } from '../../core/index.ts';

/**
 * Words people type for a column that the registry spells otherwise: the
 * guess behind `unknown type "year"; did you mean "integer"?`.
 */
const TYPE_ALIASES: Readonly<Record<string, string>> = {
  int: 'integer', int4: 'integer', int8: 'integer', bigint: 'integer', smallint: 'integer', number: 'integer', year: 'integer', count: 'integer',
  text: 'string', str: 'string', varchar: 'string', char: 'string', email: 'string', url: 'string',
  bool: 'boolean',
  decimal: 'big_decimal', numeric: 'big_decimal', money: 'big_decimal', currency: 'big_decimal',
  double: 'float', real: 'float',
  timestamp: 'datetime', timestamptz: 'datetime', time: 'datetime',
  json: 'hash', jsonb: 'hash', object: 'hash', map: 'hash',
  list: 'array',
  id: 'integer_id', reference: 'integer_id', references: 'integer_id',
  guid: 'uuid',
};

/** An enum needs its `allow:` list, which a name:type pair cannot carry. */
const needsAllowList = (type: string) => /_enums?$/.test(type);

/**
 * The types `generate resource` can write, read from the registry when asked,
 * so types a plugin registered are among them.
 */
export function generatableTypes(): string[] {
  return Object.keys(Types).filter((type) => !needsAllowList(type));
}

/** Why `type` cannot be generated, with a guess and the valid names; undefined when it can. `where` follows the type's name. */
export function typeProblem(type: string, where = ''): string | undefined {
  if (needsAllowList(type) && Object.hasOwn(Types, type)) {
    return `${type}${where} needs an allow list; generate it as string or integer and add allow: by hand`;
  }
  if (Object.hasOwn(Types, type)) return undefined;
  const types = generatableTypes();
  return `Unknown type "${type}"${where}; ${didYouMean(type, types, TYPE_ALIASES)}types: ${types.join(', ')}`;
}

/** The types for `generate resource --help`: each with its description; arrays of them on one line. */
export function typesHelp(): string {
  const types = generatableTypes();
  const arrays = types.filter((type) => Types[type]!.kind === 'array');
  const others = types.filter((type) => Types[type]!.kind !== 'array');
  const width = Math.max(...others.map((type) => type.length));
  const lines = others.map((type) => `  ${type.padEnd(width)}  ${Types[type]!.description ?? ''}`.trimEnd());
  return `Attribute types (name:type):\n${lines.join('\n')}\n  arrays: ${arrays.join(', ')}`;
}
