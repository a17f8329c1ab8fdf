import type { Adapter, ConstraintViolation } from '../adapter/adapter.ts';
import { ConflictError } from '../errors/conflict.ts';
import { MuralError } from '../errors/mural-error.ts';
import { ValidationFailed, type ValidationIssue } from '../errors/validation-failed.ts';
import type { WriteNode } from './write-node.ts';

/** What each kind of violation says of the attribute it names. */
const ISSUES: Record<Exclude<ConstraintViolation['kind'], 'foreign_key'>, { message: string; code: string }> = {
  unique: { message: 'has already been taken', code: 'taken' },
  not_null: { message: "can't be blank", code: 'blank' },
  check: { message: 'is invalid', code: 'invalid' },
};
/** The same, of a record whose columns the database did not name: a sentence of its own. */
const RECORD_ISSUES: Record<ConstraintViolation['kind'], string> = {
  unique: 'A record with the same values already exists',
  not_null: 'A value the record needs is missing',
  check: 'The database does not accept this record',
  foreign_key: 'The record refers to a record that does not exist',
};
/** A foreign key whose record does not exist: the relationship (or attribute) holding it. */
const MISSING = { message: 'does not exist', code: 'not_found' };

/**
 * The problems (422) of a record the database refused to save for one of
 * its constraints, or the 409 when the record is one others refer to (its
 * key changed under them); undefined for any other error. The driver's
 * text stays on the server.
 */
export function savingRefusal(adapter: Adapter, error: unknown, node: WriteNode): ValidationIssue[] | ConflictError | undefined {
  const violation = violationOf(adapter, error, node.model);
  if (!violation) return undefined;
  if (violation.kind === 'foreign_key' && violation.side === 'referenced') return referencedConflict(node);
  return issuesOf(violation);
}

/**
 * The 409 for a delete the database refused: any constraint a delete
 * trips (a foreign key without ON DELETE CASCADE, or one whose SET NULL
 * its referencing column refuses) means other records still refer to it.
 */
export function deletingRefusal(adapter: Adapter, error: unknown, node: WriteNode): ConflictError | undefined {
  return violationOf(adapter, error) ? referencedConflict(node) : undefined;
}

/**
 * The net under the write engine: a constraint violation that escaped the
 * saves and deletes that place their own (a join row linked or unlinked,
 * a hook's own query) is the write's 409 or 422, at its primary record.
 */
export function graphRefusal(adapter: Adapter, error: unknown, root: WriteNode): MuralError | undefined {
  if (error instanceof MuralError) return undefined;
  const violation = violationOf(adapter, error);
  if (!violation) return undefined;
  if (root.action === 'destroy' || (violation.kind === 'foreign_key' && violation.side === 'referenced')) return referencedConflict(root);
  return new ValidationFailed([{ location: root.location, issue: { message: RECORD_ISSUES[violation.kind], code: codeOf(violation) } }]);
}

function violationOf(adapter: Adapter, error: unknown, record?: object): ConstraintViolation | undefined {
  return error instanceof MuralError ? undefined : adapter.constraintViolation?.(error, record);
}

function issuesOf(violation: ConstraintViolation): ValidationIssue[] {
  const { message, code } = violation.kind === 'foreign_key' ? MISSING : ISSUES[violation.kind];
  if (violation.attributes.length === 0) return [{ message: RECORD_ISSUES[violation.kind], code }];
  return violation.attributes.map((attribute) => ({ attribute, message, code }));
}

function codeOf(violation: ConstraintViolation): string {
  return violation.kind === 'foreign_key' ? MISSING.code : ISSUES[violation.kind].code;
}

function referencedConflict(node: WriteNode): ConflictError {
  const pointer = node.location.pointer ?? node.location.identifier;
  const name = node.id === undefined ? `This ${node.resource.type} record` : `${node.resource.type} ${node.id}`;
  return new ConflictError(`${name} cannot be ${node.action === 'destroy' ? 'deleted' : 'changed this way'}: other records refer to it`, {
    ...(pointer !== undefined ? { pointer } : {}),
    meta: { reason: 'referenced' },
  });
}
