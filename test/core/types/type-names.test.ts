import test from 'ava';
import { Types } from '../../../core/types/index.ts';
import type { BuiltInTypeName } from '../../../core/types/type-names.ts';

// Every name TypeName lists, once: a name missing here, or one TypeName does not list, fails to compile.
const TYPE_NAMES: Record<BuiltInTypeName, true> = {
  string: true, integer: true, integer_id: true, uuid: true, string_enum: true, integer_enum: true,
  big_decimal: true, float: true, boolean: true, date: true, datetime: true, hash: true, array: true,
  array_of_strings: true, array_of_integers: true, array_of_integer_ids: true, array_of_uuids: true,
  array_of_string_enums: true, array_of_integer_enums: true, array_of_big_decimals: true, array_of_floats: true,
  array_of_dates: true, array_of_datetimes: true,
};

test('the type names the DSL accepts are exactly the types registered at startup', (t) => {
  t.deepEqual(Object.keys(Types).sort(), Object.keys(TYPE_NAMES).sort());
});
