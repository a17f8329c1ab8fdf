/**
 * The types users of `mural/typescript` get: client types generated from a
 * schema, and the plugin adding `mural types`. Only compiled, never run (see
 * core.test-d.ts).
 */
import { expectTypeOf } from 'expect-type';
import { buildSchema, Resource, type Schema } from 'mural';
import type { MuralPlugin } from 'mural/cli';
import { interfaceName, resourceTypes, typescriptPlugin } from 'mural/typescript';

class EmployeeResource extends Resource {
  static {
    this.attribute('first_name', 'string');
  }
}

const schema = buildSchema([EmployeeResource]);
expectTypeOf(schema).toEqualTypeOf<Schema>();
expectTypeOf(resourceTypes(schema)).toEqualTypeOf<Promise<string>>();
expectTypeOf(interfaceName('EmployeeResource')).toEqualTypeOf<string>();
expectTypeOf(typescriptPlugin).toEqualTypeOf<MuralPlugin>();

// @ts-expect-error types are generated from a schema, not from Resource classes
resourceTypes([EmployeeResource]);
