import test from 'ava';
import { Resource, ValidationFailed } from '../../../core/index.ts';
import { placedIssue } from '../../../core/write/issue-placement.ts';

class GadgetOwnerResource extends Resource {
  static {
    this.type = 'owners';
    this.attribute('name', 'string');
  }
}

class GadgetResource extends Resource {
  static {
    this.type = 'gadgets';
    this.attribute('label', 'string');
    this.belongsTo('owner', { resource: GadgetOwnerResource });
    this.polymorphic = ['WidgetResource'];
  }
}

class WidgetResource extends GadgetResource {
  static {
    this.type = 'widgets';
  }
}

/** The error object a client would see for one issue of the record at /data. */
const rendered = (resource: typeof Resource, issue: { attribute?: string; message: string; code: string }) =>
  new ValidationFailed([{ location: { pointer: '/data' }, issue: placedIssue(resource, issue) }]).toJsonapiErrors()[0]!;

test('an issue about a declared attribute points at the attribute', (t) => {
  t.like(rendered(GadgetResource, { attribute: 'label', message: "can't be blank", code: 'blank' }), {
    detail: "Label can't be blank",
    source: { pointer: '/data/attributes/label' },
  });
});

test("an issue about a column that is no attribute of the Resource points at the resource object, naming the column in meta", (t) => {
  t.like(rendered(GadgetResource, { attribute: 'serial_number', message: 'must be unique', code: 'taken' }), {
    source: { pointer: '/data' },
    meta: { attribute: 'serial_number', code: 'taken' },
  });
});

test("an issue about a belongs_to's foreign key points at the relationship that sets it", (t) => {
  t.like(rendered(GadgetResource, { attribute: 'owner_id', message: 'cannot be null', code: 'blank' }), {
    source: { pointer: '/data/relationships/owner' },
    meta: { attribute: 'owner_id' },
  });
});

test("a polymorphic parent's type column points at /data/type and names the types to create the record as", (t) => {
  t.like(rendered(GadgetResource, { attribute: 'type', message: 'cannot be null', code: 'blank' }), {
    detail: 'A gadgets record is created as one of its types: widgets',
    code: 'unprocessable_entity',
    source: { pointer: '/data/type' },
    meta: { attribute: null, code: 'polymorphic_type_required' },
  });
  // a child's own type column is just a column
  t.like(rendered(WidgetResource, { attribute: 'type', message: 'is not a gadget type', code: 'invalid' }), { source: { pointer: '/data' } });
});
