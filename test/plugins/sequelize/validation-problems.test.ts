import test from 'ava';
import { ValidationError, ValidationErrorItem } from 'sequelize';
import { validationProblems } from '../../../plugins/sequelize/persistence.ts';

const item = (message: string, path: string, validatorKey: string, type = 'Validation error') =>
  new ValidationErrorItem(message, type as never, path, '', null as never, validatorKey, 'fn', []);

test("Sequelize's own messages, which name the model and column, become Mural's words", (t) => {
  const error = new ValidationError('', [
    item('Note.notable_id cannot be null', 'notable_id', 'is_null', 'notNull Violation'),
    item('Validation isIn on kind failed', 'kind', 'isIn'),
    item('Validation isEmail on email failed', 'email', 'isEmail'),
    item('code must be unique', 'code', 'not_unique', 'unique violation'),
  ]);
  t.deepEqual(validationProblems(error), [
    { attribute: 'notable_id', message: "can't be blank", code: 'blank' },
    { attribute: 'kind', message: 'is not included in the list', code: 'inclusion' },
    { attribute: 'email', message: 'is invalid', code: 'invalid' },
    { attribute: 'code', message: 'has already been taken', code: 'taken' },
  ]);
});

test("a model's own message is kept", (t) => {
  const error = new ValidationError('', [item("can't be blank", 'title', 'notEmpty'), item('is not a task type', 'type', 'isIn')]);
  t.deepEqual(validationProblems(error), [
    { attribute: 'title', message: "can't be blank", code: 'blank' },
    { attribute: 'type', message: 'is not a task type', code: 'inclusion' },
  ]);
});

test('a validation error with no items says no more than that the record is invalid', (t) => {
  t.deepEqual(validationProblems(new ValidationError('SQLITE_CONSTRAINT: something internal', [])), [{ message: 'The record is invalid', code: 'invalid' }]);
  t.is(validationProblems(new Error('not a validation error')), undefined);
});
