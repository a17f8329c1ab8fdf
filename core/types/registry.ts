import { ResourceConfigurationError } from '../errors/index.ts';
import { ARRAY_OF_PLURALS, arrayOf } from './array-of.ts';
import { builtInTypes } from './built-in-types.ts';
import type { TypeDefinition } from './type-definition.ts';
import type { BuiltInTypeName } from './type-names.ts';

const BUILT_IN = builtInTypes();

/**
 * The type registry. A plain mutable object on purpose: applications replace
 * a coercion in place (`Types.string.read = Types.integer.read`) or register
 * their own type by assignment (`Types.money = { params, read, write, kind,
 * canonical_name, description }`), and everything that looks types up sees
 * the change. Declaring the new name in `TypeNames` lets the DSL accept it.
 */
export const Types: TypeRegistry = { ...BUILT_IN } as TypeRegistry;

/** The registry's shape: every built-in, plus whatever an application registers. */
export type TypeRegistry = Record<BuiltInTypeName, TypeDefinition> & { [name: string]: TypeDefinition };

// Falls back to the built-in entry so deleting Types.integer cannot break array_of_integers.
const resolveElement = (name: string): TypeDefinition => Types[name] ?? BUILT_IN[name]!;
for (const element of Object.keys(ARRAY_OF_PLURALS)) {
  const type = arrayOf(element, resolveElement);
  Types[type.canonical_name] = type;
}

const ELEMENT_BY_ARRAY = new Map(Object.entries(ARRAY_OF_PLURALS).map(([element, plural]) => [`array_of_${plural}`, element]));

/** `array_of_integers` → `integer`, `array_of_integer_ids` → `integer_id`; undefined for any other name. */
export function elementTypeName(name: string): string | undefined {
  return ELEMENT_BY_ARRAY.get(name);
}

/** The registered type, or a configuration error naming every known type. */
export function lookupType(name: string): TypeDefinition {
  const type = Object.hasOwn(Types, name) ? Types[name] : undefined;
  if (!type) {
    throw new ResourceConfigurationError(`Unknown type "${name}"; known types: ${Object.keys(Types).join(', ')}`);
  }
  return type;
}
