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

export function validationProblems(error: unknown): ValidationProblem[] | undefined {
  const refused = dataException(error);
  if (refused) return [refused];
  if (!(error instanceof ValidationError)) return undefined;
  if (error.errors.length === 0) return [{ message: error.message, code: 'invalid' }];
  return error.errors.map((item) => {
    const key = item.validatorKey ?? item.type ?? 'invalid';
    const unique = key === 'not_unique' || item.type === 'unique violation';
    return {
      attribute: item.path ?? undefined,
      message: unique ? 'has already been taken' : item.message,
      code: unique ? 'taken' : (CODES[key] ?? key),
    };
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
