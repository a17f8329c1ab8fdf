import test from 'ava';
import { buildSchema, Resource, visibleSchema, withContext } from '../../../core/index.ts';
import { gadgetApi } from '../../support/gadget-api.ts';

/** The schema as one request may use it: what its guards refuse is left out; what they allow keeps its mark. */

const api = gadgetApi();
const resources = Object.values(api);
const as = (role: string | undefined) => withContext({ role }, () => visibleSchema(resources));
const gadgets = (schema: ReturnType<typeof as>) => schema.resources.find((r) => r.type === 'gadgets')!;

test('a guest is not shown what a guard refuses now: attribute, filter, relationship', (t) => {
  const guest = gadgets(as(undefined));
  t.false('price' in guest.attributes);
  t.false('weight' in guest.filters);
  t.false('shapes' in guest.relationships);
  t.false(guest.related_filters!.includes('shapes'));
  t.true('name' in guest.attributes && 'maker' in guest.relationships && 'name' in guest.filters);
});

test('an admin is shown them, still marked guarded, exactly as the full schema has them', (t) => {
  const admin = gadgets(as('admin'));
  const full = buildSchema(resources).resources.find((r) => r.type === 'gadgets')!;
  t.deepEqual(admin, full);
  t.like(admin.attributes.price, { readable: 'guarded', writable: 'guarded' });
  t.like(admin.filters.weight, { guard: true });
  t.like(admin.relationships.shapes, { guard: true });
});

test('a Resource the request may not read is left out, with its endpoints and the relationships to it', (t) => {
  class Base extends Resource {
    static {
      this.abstractClass = true;
      this.endpointNamespace = '/v';
    }
    isAdmin() {
      return this.context?.role === 'admin';
    }
  }
  class SecretResource extends Base {
    static {
      this.type = 'secrets';
      this.attribute('text', 'string');
      this.guard('isAdmin', { only: ['index', 'show'] });
    }
  }
  class NoteResource extends Base {
    static {
      this.type = 'notes';
      this.attribute('body', 'string');
      // decided per record: it stays "guarded"
      this.attribute('draft', 'string', { readable: (note: { draft?: string }) => note.draft !== undefined });
      this.attribute('author', 'string', { readable: 'isAdmin', writable: true });
      this.hasMany('secrets', { resource: () => SecretResource });
    }
  }
  const guest = withContext({}, () => visibleSchema([SecretResource, NoteResource]));
  t.deepEqual(guest.resources.map((r) => r.type), ['notes']);
  t.deepEqual(Object.keys(guest.endpoints), ['/v/notes']);
  const notes = guest.resources[0]!;
  t.deepEqual(Object.keys(notes.relationships), []);
  t.like(notes.attributes.draft, { readable: 'guarded' });
  // refused to read, still writable: listed as write-only
  t.like(notes.attributes.author, { readable: false, writable: true });
  const admin = withContext({ role: 'admin' }, () => visibleSchema([SecretResource, NoteResource]));
  t.deepEqual(admin.resources.map((r) => r.type), ['notes', 'secrets']);
  t.deepEqual(Object.keys(admin.resources[0]!.relationships), ['secrets']);
});
