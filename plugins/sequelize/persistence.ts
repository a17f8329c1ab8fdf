import { DatabaseError, ValidationError, type Model, type ModelStatic, type Transaction } from 'sequelize';
import type { JoinTable, ValidationProblem } from '../../core/index.ts';

/** Sequelize's validator names → the short codes JSON:API clients of this family expect. */
const CODES: Record<string, string> = {
  notEmpty: 'blank', notNull: 'blank', is_null: 'blank', isIn: 'inclusion', notIn: 'exclusion', len: 'length',
  not_unique: 'taken', isEmail: 'invalid', isInt: 'not_an_integer', isNumeric: 'not_a_number', min: 'greater_than_or_equal_to',
  max: 'less_than_or_equal_to',
};

/**
 * A value its column cannot hold (a string longer than VARCHAR(255), an
 * integer beyond INTEGER): PostgreSQL and MySQL/MariaDB refuse the row where
 * SQLite stores it. Keyed by PostgreSQL SQLSTATE and MySQL errno; the
 * messages are ours, so no database text reaches the client.
 */
const UNFIT_VALUES: Record<string, Omit<ValidationProblem, 'attribute'>> = {
  '22001': { code: 'too_long', message: 'is too long' },
  '1406': { code: 'too_long', message: 'is too long' },
  '22003': { code: 'out_of_range', message: 'is out of range' },
  '1264': { code: 'out_of_range', message: 'is out of range' },
  '22008': { code: 'out_of_range', message: 'is out of range' },
  '22007': { code: 'invalid', message: 'is invalid' },
  '1292': { code: 'invalid', message: 'is invalid' },
  '1366': { code: 'invalid', message: 'is invalid' },
};

function unfitValue(error: DatabaseError): ValidationProblem[] | undefined {
  const driver = error.parent as Error & { code?: unknown; errno?: unknown };
  const problem = UNFIT_VALUES[String(driver.code)] ?? UNFIT_VALUES[String(driver.errno)];
  if (!problem) return undefined;
  // MySQL names the column; PostgreSQL does not, so the problem is the record's
  const column = /for column '([^']+)'/.exec(driver.message)?.[1];
  return [{ ...problem, ...(column ? { attribute: column } : { message: `A value ${problem.message} for its column` }) }];
}

export function validationProblems(error: unknown): ValidationProblem[] | undefined {
  if (error instanceof DatabaseError) return unfitValue(error);
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
  try {
    await record.validate({ skip: [...skip] });
    return [];
  } catch (error) {
    const problems = validationProblems(error);
    if (problems) return problems;
    throw error;
  }
}

function joinSql(model: ModelStatic<Model>, join: JoinTable) {
  const sequelize = model.sequelize!;
  const q = (name: string) => sequelize.getQueryInterface().quoteIdentifier(name);
  const where = `${q(join.parentKey)} = ? AND ${q(join.childKey)} = ?`;
  return { sequelize, table: q(join.table), columns: `${q(join.parentKey)}, ${q(join.childKey)}`, where };
}

/** Inserts the join row unless it is there already. */
export async function linkRows(model: ModelStatic<Model>, join: JoinTable, parentId: unknown, childId: unknown, transaction: Transaction): Promise<void> {
  const { sequelize, table, columns, where } = joinSql(model, join);
  const replacements = [parentId, childId];
  const [rows] = await sequelize.query(`SELECT 1 AS found FROM ${table} WHERE ${where}`, { replacements, transaction });
  if ((rows as unknown[]).length > 0) return;
  await sequelize.query(`INSERT INTO ${table} (${columns}) VALUES (?, ?)`, { replacements, transaction });
}

export async function unlinkRows(model: ModelStatic<Model>, join: JoinTable, parentId: unknown, childId: unknown, transaction: Transaction): Promise<void> {
  const { sequelize, table, where } = joinSql(model, join);
  await sequelize.query(`DELETE FROM ${table} WHERE ${where}`, { replacements: [parentId, childId], transaction });
}
