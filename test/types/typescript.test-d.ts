/**
 * The types users of `mural/typescript` get: client types generated from a
 * schema (the plugin adding `mural types` is mural-cli's: see
 * cli.test-d.ts). Only compiled, never run (see core.test-d.ts).
 */
import { expectTypeOf } from 'expect-type';
import { buildSchema, Resource, type Schema } from 'mural';
import { interfaceName, resourceTypes, type SchemaCompiler } from 'mural/typescript';

class EmployeeResource extends Resource {
  static {
    this.attribute('first_name', 'string');
  }
}

const schema = buildSchema([EmployeeResource]);
expectTypeOf(schema).toEqualTypeOf<Schema>();
expectTypeOf(resourceTypes(schema)).toEqualTypeOf<Promise<string>>();
expectTypeOf(interfaceName('EmployeeResource')).toEqualTypeOf<string>();
// a compiler of one's own (json-schema-to-typescript's `compile` has this shape)
const compile: SchemaCompiler = async (_schema, name) => `export interface ${name} {}`;
expectTypeOf(resourceTypes(schema, { compile })).toEqualTypeOf<Promise<string>>();

// @ts-expect-error types are generated from a schema, not from Resource classes
resourceTypes([EmployeeResource]);
// @ts-expect-error a compiler answers a promise of the source
resourceTypes(schema, { compile: (_schema: object, name: string) => name });
