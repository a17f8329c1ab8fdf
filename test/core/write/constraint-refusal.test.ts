import test from 'ava';
import { ConflictError, Resource, ValidationFailed, type Adapter, type ConstraintViolation } from '../../../core/index.ts';
import { deletingRefusal, graphRefusal, savingRefusal } from '../../../core/write/constraint-refusal.ts';
import type { WriteNode } from '../../../core/write/write-node.ts';

class ShelfResource extends Resource {
  static {
    this.type = 'shelves';
  }
}

/** An adapter that recognises one error, `refused`, as `violation`; every other error is none of its business. */
const refused = new Error('the driver says so, in SQL');
const adapterFor = (violation: ConstraintViolation | undefined) =>
  ({ constraintViolation: (error: unknown) => (error === refused ? violation : undefined) }) as unknown as Adapter;
const node = (action: WriteNode['action'], location: WriteNode['location'] = { pointer: '/data' }): WriteNode => ({
  resource: ShelfResource, action, id: '7', attributes: {}, guardedAttributes: [], relationships: [], location,
});

test('a save refused by a unique key, a NOT NULL or a check: 422 issues at each attribute the database named', (t) => {
  t.deepEqual(savingRefusal(adapterFor({ kind: 'unique', attributes: ['code', 'batch'] }), refused, node('create')), [
    { attribute: 'code', message: 'has already been taken', code: 'taken' },
    { attribute: 'batch', message: 'has already been taken', code: 'taken' },
  ]);
  t.deepEqual(savingRefusal(adapterFor({ kind: 'not_null', attributes: ['label'] }), refused, node('update')), [{ attribute: 'label', message: "can't be blank", code: 'blank' }]);
  t.deepEqual(savingRefusal(adapterFor({ kind: 'check', attributes: ['weight'] }), refused, node('create')), [{ attribute: 'weight', message: 'is invalid', code: 'invalid' }]);
});

test('a save refused naming no column: one issue about the record, in a sentence of its own', (t) => {
  t.deepEqual(savingRefusal(adapterFor({ kind: 'check', attributes: [] }), refused, node('create')), [{ message: 'The database does not accept this record', code: 'invalid' }]);
});

test('a foreign key naming no record: 422 not_found at the key; one other records hold on this record: 409', (t) => {
  t.deepEqual(savingRefusal(adapterFor({ kind: 'foreign_key', side: 'missing', attributes: ['shelf_id'] }), refused, node('create')), [
    { attribute: 'shelf_id', message: 'does not exist', code: 'not_found' },
  ]);
  // SQLite does not say which side: a save is taken to refer to a missing record
  t.deepEqual(savingRefusal(adapterFor({ kind: 'foreign_key', attributes: [] }), refused, node('create')), [
    { message: 'The record refers to a record that does not exist', code: 'not_found' },
  ]);
  const conflict = savingRefusal(adapterFor({ kind: 'foreign_key', side: 'referenced', attributes: [] }), refused, node('update'));
  t.true(conflict instanceof ConflictError);
});

test('a delete refused by any constraint is a 409 conflict saying others refer to the record, at the record when the body names it', (t) => {
  for (const violation of [{ kind: 'foreign_key', side: 'referenced', attributes: [] }, { kind: 'foreign_key', attributes: [] }, { kind: 'not_null', attributes: ['shelf_id'] }] as const) {
    const conflict = deletingRefusal(adapterFor(violation), refused, node('destroy', { pointer: null }))!;
    t.like(conflict.toJsonapiErrors()[0], { status: '409', code: 'conflict', detail: 'shelves 7 cannot be deleted: other records refer to it', meta: { reason: 'referenced' } });
    t.is(conflict.toJsonapiErrors()[0]!.source, undefined);
  }
  const sideposted = deletingRefusal(adapterFor({ kind: 'foreign_key', attributes: [] }), refused, node('destroy', { pointer: null, identifier: '/data/relationships/shelf/data' }))!;
  t.deepEqual(sideposted.toJsonapiErrors()[0]!.source, { pointer: '/data/relationships/shelf/data' });
});

test('errors that are not constraint violations, and adapters that recognise none, are left alone', (t) => {
  const other = new Error('connection reset');
  t.is(savingRefusal(adapterFor({ kind: 'unique', attributes: [] }), other, node('create')), undefined);
  t.is(deletingRefusal(adapterFor({ kind: 'unique', attributes: [] }), other, node('destroy')), undefined);
  t.is(savingRefusal({} as Adapter, refused, node('create')), undefined);
  t.is(graphRefusal(adapterFor({ kind: 'unique', attributes: [] }), new ConflictError('already a Mural error'), node('create')), undefined);
});

test('the net under the engine: a violation no save placed (a join row) is the write\'s 422 at its primary record, or its 409', (t) => {
  const invalid = graphRefusal(adapterFor({ kind: 'foreign_key', side: 'missing', attributes: [] }), refused, node('update'));
  t.true(invalid instanceof ValidationFailed);
  t.like(invalid!.toJsonapiErrors()[0], { status: '422', detail: 'The record refers to a record that does not exist', source: { pointer: '/data' }, meta: { code: 'not_found' } });
  t.true(graphRefusal(adapterFor({ kind: 'foreign_key', attributes: [] }), refused, node('destroy')) instanceof ConflictError);
});
