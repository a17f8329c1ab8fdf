import { ValidationError, type Model } from 'sequelize';
import type { ValidationProblem } from '../../core/index.ts';
import { columnProblems } from './column-limits.ts';
import { dataException } from './data-exception.ts';

/** Sequelize's validator names → the short codes JSON:API clients of this family expect. */
const CODES: Record<string, string> = {
  notEmpty: 'blank', notNull: 'blank', is_null: 'blank', isIn: 'inclusion', notIn: 'exclusion', len: 'length',
  not_unique: 'taken', isEmail: 'invalid', isInt: 'not_an_integer', isNumeric: 'not_a_number', min: 'greater_than_or_equal_to',
  max: 'less_than_or_equal_to',
};

/** Mural's wording where a validator kept Sequelize's own message, which names the model and column ("Note.notable_id cannot be null"). */
const WORDING: Record<string, string> = {
  blank: "can't be blank", taken: 'has already been taken', inclusion: 'is not included in the list', exclusion: 'is reserved',
  length: 'is the wrong length', not_an_integer: 'must be an integer', not_a_number: 'is not a number',
  greater_than_or_equal_to: 'is too small', less_than_or_equal_to: 'is too large',
};
/** Sequelize's default messages: `Model.column cannot be null`, `Validation isIn on column failed`, `column must be unique`. */
const SEQUELIZE_DEFAULT = /^\S+\.\S+ cannot be null$|^Validation \S+ on \S+ failed$|^\S+ must be unique$/;

export function validationProblems(error: unknown): ValidationProblem[] | undefined {
  const refused = dataException(error);
  if (refused) return [refused];
  if (!(error instanceof ValidationError)) return undefined;
  // a UniqueConstraintError naming no column: the driver's text is all it has, and is not for clients
  if (error.errors.length === 0) return [{ message: 'The record is invalid', code: 'invalid' }];
  return error.errors.map((item) => {
    const key = item.validatorKey ?? item.type ?? 'invalid';
    const unique = key === 'not_unique' || item.type === 'unique violation';
    const code = unique ? 'taken' : (CODES[key] ?? key);
    const own = !unique && !SEQUELIZE_DEFAULT.test(item.message);
    return { attribute: item.path ?? undefined, message: own ? item.message : (WORDING[code] ?? 'is invalid'), code };
  });
}

export async function validateRecord(record: Model, skip: readonly string[]): Promise<ValidationProblem[]> {
  const columns = columnProblems(record).filter((p) => !skip.includes(p.attribute!));
  try {
    await record.validate({ skip: [...skip] });
    return columns;
  } catch (error) {
    const problems = validationProblems(error);
    if (problems) return [...problems, ...columns.filter((c) => !problems.some((p) => p.attribute === c.attribute))];
    throw error;
  }
}
