/** The scalar types that also have an `array_of_<plural>` form, and that plural. */
interface ArrayPlurals {
  string: 'strings';
  integer: 'integers';
  integer_id: 'integer_ids';
  uuid: 'uuids';
  string_enum: 'string_enums';
  integer_enum: 'integer_enums';
  big_decimal: 'big_decimals';
  float: 'floats';
  date: 'dates';
  datetime: 'datetimes';
}

/** Every type Mural registers itself. */
export type BuiltInTypeName = keyof ArrayPlurals | 'boolean' | 'hash' | 'array' | `array_of_${ArrayPlurals[keyof ArrayPlurals]}`;

/**
 * The type names `attribute`, `extraAttribute`, `filter` and `sort` accept,
 * so a misspelt type fails to compile rather than at startup. An application
 * that registers a type of its own (`Types.money = { … }`) declares its name
 * once, by augmenting this interface (the values are not read):
 *
 *   declare module 'mural' {
 *     interface TypeNames { money: true }
 *   }
 */
export interface TypeNames extends Record<BuiltInTypeName, true> {}

/** A registered type's name: a built-in or one declared in `TypeNames`. */
export type TypeName = keyof TypeNames & string;
