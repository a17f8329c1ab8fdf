/**
 * The types of atomic operations in-process: a document the README's
 * example builds compiles, its results are typed, and each mistake below
 * stays a compile error. Only compiled, never run (see core.test-d.ts).
 */
import { expectTypeOf } from 'expect-type';
import {
  ATOMIC_EXTENSION, configure, OperationFailed, Resource, runOperations, type AtomicOperation, type AtomicOperationsDocument, type AtomicResult,
  type AtomicResultsDocument, type MuralConfig, type ResourceObject,
} from 'mural';

class EmployeeResource extends Resource {
  static {
    this.type = 'employees';
  }
}

const document: AtomicOperationsDocument = {
  'atomic:operations': [
    { op: 'add', data: { type: 'departments', lid: 'dept', attributes: { name: 'Research' } } },
    { op: 'add', data: { type: 'employees', lid: 'ada', attributes: { first_name: 'Ada' }, relationships: { department: { data: { type: 'departments', lid: 'dept' } } } } },
    { op: 'update', ref: { type: 'employees', lid: 'ada' }, data: { type: 'employees', attributes: { age: 37 } } },
    { op: 'update', data: { type: 'employees', id: '4', attributes: { age: 40 } } },
    { op: 'add', ref: { type: 'employees', lid: 'ada', relationship: 'teams' }, data: [{ type: 'teams', id: '1' }] },
    { op: 'update', ref: { type: 'positions', id: 3, relationship: 'employee' }, data: null },
    { op: 'remove', ref: { type: 'employees', id: '9', relationship: 'teams' }, data: [{ type: 'teams', id: 2 }] },
    { op: 'remove', ref: { type: 'employees', id: '9' } },
  ],
};

async function run(): Promise<void> {
  const results = await runOperations(document, { resources: [EmployeeResource] });
  expectTypeOf(results).toEqualTypeOf<AtomicResultsDocument>();
  expectTypeOf(results['atomic:results']).toEqualTypeOf<AtomicResult[]>();
  expectTypeOf(results['atomic:results'][0]!.data).toEqualTypeOf<(ResourceObject & { lid?: string }) | undefined>();
  expectTypeOf(results.jsonapi.ext).toEqualTypeOf<[typeof ATOMIC_EXTENSION]>();
  try {
    await runOperations(document, { resources: [EmployeeResource] });
  } catch (error) {
    if (error instanceof OperationFailed) expectTypeOf(error.operation).toEqualTypeOf<string>();
  }
}
void run;

expectTypeOf(configure).parameter(0).toMatchTypeOf<Partial<MuralConfig>>();
configure({ maxOperations: 20 });
// @ts-expect-error maxOperations is a number
configure({ maxOperations: '20' });

// @ts-expect-error op is add, update or remove
const create: AtomicOperation = { op: 'create', data: { type: 'employees' } };
// @ts-expect-error remove names its record with ref
const removeWithoutRef: AtomicOperation = { op: 'remove' };
// @ts-expect-error a ref has an id or a lid, not both
const both: AtomicOperation = { op: 'remove', ref: { type: 'employees', id: '1', lid: 'ada' } };
// @ts-expect-error add creates a record: the database gives its id
const addWithId: AtomicOperation = { op: 'add', data: { type: 'employees', id: '1' } };
// @ts-expect-error adding relationship members takes a list of identifiers
const addOne: AtomicOperation = { op: 'add', ref: { type: 'employees', id: '1', relationship: 'teams' }, data: { type: 'teams', id: '1' } };
// @ts-expect-error an identifier needs an id or a lid
const anonymous: AtomicOperation = { op: 'add', ref: { type: 'employees', id: '1', relationship: 'teams' }, data: [{ type: 'teams' }] };
// @ts-expect-error the document's operations are in atomic:operations
const wrongKey: AtomicOperationsDocument = { operations: [] };
void [create, removeWithoutRef, both, addWithId, addOne, anonymous, wrongKey];
