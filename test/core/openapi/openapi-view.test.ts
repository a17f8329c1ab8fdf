import test from 'ava';
import { compileErrors, validate } from '@readme/openapi-parser';
import { buildOpenApi, prepareOpenApi, Resource, withContext, type JsonSchema, type MuralContext, type OpenApiDocument } from '../../../core/index.ts';
import { connect } from '../../../examples/employee-directory/db/connection.ts';
import { defineModels } from '../../../examples/employee-directory/db/models/index.ts';
import { defineResources } from '../../../examples/employee-directory/resources/index.ts';

/**
 * `view: 'caller'`: the document as the current context may use the API.
 * The example guards `employees.salary`, `employees.notes` and the notes
 * Resource for admins: a guest's document has none of them, an admin's is
 * the full document, byte for byte, since every guard allows.
 */

const sequelize = connect(':memory:');
const directory = Object.values(defineResources(defineModels(sequelize)));
test.after.always(() => sequelize.close());

const ADMIN = { role: 'admin' };
const GUEST = { role: 'guest' };
const caller = (context: MuralContext, resources: Array<typeof Resource> = directory) => withContext(context, () => buildOpenApi(resources, { view: 'caller' }));
const text = (document: OpenApiDocument) => JSON.stringify(document);
const schemaOf = (document: OpenApiDocument, name: string) => document.components.schemas[name] as JsonSchema & { properties: Record<string, JsonSchema> };
const members = (document: OpenApiDocument, name: string) => Object.keys((schemaOf(document, name).properties ?? {}) as object);

test('the full view, the default, is the same in every context: what mural openapi writes', (t) => {
  const full = text(buildOpenApi(directory));
  t.is(text(withContext(GUEST, () => buildOpenApi(directory))), full);
  t.is(text(withContext(ADMIN, () => buildOpenApi(directory, { view: 'full' }))), full);
  t.true(full.includes('/api/v1/notes'), 'the full document describes what a guest may not use');
});

test('an admin, whom every guard allows, gets the full document, guard marks included', (t) => {
  t.is(text(caller(ADMIN)), text(buildOpenApi(directory)));
});

test('a guest\'s document leaves out the notes Resource, the notes relationship and salary, everywhere', (t) => {
  const guest = caller(GUEST);
  t.false(/notes|Note/.test(text(guest)), 'no path, component, parameter, include example or description names notes');
  t.false(text(guest).includes('salary'));
  t.false(Object.keys(guest.paths).some((path) => path.includes('notes')));
  t.deepEqual(members(guest, 'EmployeeResource.write-relationships').sort(), ['current_position', 'positions', 'tasks', 'teams']);
  t.false(members(guest, 'EmployeeResource.write-attributes').includes('salary'));
  // what a guest may use is still described, with the same parameters
  t.truthy(guest.paths['/api/v1/employees/{id}/relationships/teams']?.post);
  t.truthy(guest.paths['/api/v1/employees/{id}/teams']?.get);
});

test('a guest\'s document is valid OpenAPI, without warnings', async (t) => {
  const result = await validate(JSON.parse(text(caller(GUEST))) as Parameters<typeof validate>[0]);
  t.true(result.valid, result.valid ? '' : compileErrors(result));
  t.deepEqual(result.warnings, []);
});

test('actions a Resource guard refuses now are left out, the others kept; a Resource with none left is not described', (t) => {
  class Memo extends Resource {
    static {
      this.type = 'memos';
      this.endpointNamespace = '/api';
      this.attribute('text', 'string');
      this.guard(function (this: Resource) {
        return this.context?.role === 'editor';
      }, { only: ['create', 'update', 'destroy'] });
    }
  }
  class Secret extends Resource {
    static {
      this.type = 'secrets';
      this.endpointNamespace = '/api';
      this.attribute('text', 'string');
      this.guard(false);
    }
  }
  const reader = caller({ role: 'reader' }, [Memo, Secret]);
  t.truthy(reader.paths['/api/memos']!.get);
  t.falsy(reader.paths['/api/memos']!.post);
  t.truthy(reader.paths['/api/memos/{id}']!.get);
  t.falsy(reader.paths['/api/memos/{id}']!.patch);
  t.falsy(reader.paths['/api/memos/{id}']!.delete);
  t.false(text(reader).includes('secrets') || text(reader).includes('Secret'));
  const editor = caller({ role: 'editor' }, [Memo, Secret]);
  t.truthy(editor.paths['/api/memos']!.post);
  t.truthy(editor.paths['/api/memos/{id}']!.delete);
});

test('prepareOpenApi\'s key is equal exactly when the documents are: one per view, not per request', (t) => {
  const prepared = (context: MuralContext) => withContext(context, () => prepareOpenApi(directory, { view: 'caller' }));
  const [guest, otherGuest, admin, anonymous] = [prepared(GUEST), prepared({ role: 'visitor' }), prepared(ADMIN), prepared({})];
  t.is(guest.key, otherGuest.key);
  t.is(guest.key, anonymous.key);
  t.not(guest.key, admin.key);
  t.is(text(withContext(GUEST, () => guest.document())), text(withContext({}, () => anonymous.document())));
  t.not(text(guest.document()), text(admin.document()));
  t.is(prepareOpenApi(directory).key, withContext(ADMIN, () => prepareOpenApi(directory)).key, 'the full view has one key');
});
