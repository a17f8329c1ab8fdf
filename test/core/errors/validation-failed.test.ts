import test from 'ava';
import { ConflictError, ValidationFailed, type RecordLocation, type ValidationIssue } from '../../../core/index.ts';

const blank: ValidationIssue = { attribute: 'title', message: "can't be blank", code: 'blank' };
const pointerOf = (location: RecordLocation, issue: ValidationIssue = blank) => new ValidationFailed([{ location, issue }]).toJsonapiErrors()[0]!.source?.pointer;

test('an issue points at its attribute, or the member it names, within the record\'s resource object', (t) => {
  t.is(pointerOf({ pointer: '/included/2' }), '/included/2/attributes/title');
  t.is(pointerOf({ pointer: '/data' }, { ...blank, member: '/relationships/epic' }), '/data/relationships/epic');
  t.is(pointerOf({ pointer: '/data' }, { ...blank, member: '' }), '/data');
});

test('an issue naming no attribute points at the resource object itself', (t) => {
  t.is(pointerOf({ pointer: '/included/0' }, { message: 'The database does not accept this record', code: 'invalid' }), '/included/0');
});

test('a record the body only names by an identifier: its issues point at the identifier, else at /data (a relationship write\'s linkage); never null', (t) => {
  t.is(pointerOf({ pointer: null, identifier: '/data/relationships/teams/data/1' }), '/data/relationships/teams/data/1');
  t.is(pointerOf({ pointer: null, identifier: '/data/0', relationship: { name: 'notes', type: 'notes', id: '3' } }), '/data/0');
  t.is(pointerOf({ pointer: null }), '/data');
  t.is(pointerOf({ pointer: null }, { ...blank, member: '/relationships/epic' }), '/data');
});

test('an error given a null pointer renders no source at all: JSON:API\'s pointer is always a JSON Pointer', (t) => {
  t.false('source' in new ConflictError('gadgets 1 cannot be deleted', { pointer: null }).toJsonapiErrors()[0]!);
  t.deepEqual(new ConflictError('Type mismatch', { pointer: '' }).toJsonapiErrors()[0]!.source, { pointer: '' });
});
