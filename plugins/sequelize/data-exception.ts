import { DatabaseError } from 'sequelize';
import type { ValidationProblem } from '../../core/index.ts';

/** MySQL/MariaDB errors that mean "this value does not fit its column". */
const MYSQL_DATA_ERRORS = new Set(['ER_DATA_TOO_LONG', 'ER_WARN_DATA_OUT_OF_RANGE', 'ER_TRUNCATED_WRONG_VALUE', 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', 'WARN_DATA_TRUNCATED', 'ER_DATA_OUT_OF_RANGE']);
const SQLITE_DATA_ERRORS = new Set(['SQLITE_TOOBIG', 'SQLITE_MISMATCH', 'SQLITE_RANGE']);

/**
 * A value the database refused as data rather than as a fault: PostgreSQL's
 * class 22 ("data exception"), MySQL's truncation and range errors, SQLite's
 * size and type mismatches. Column checks catch the usual cases before
 * saving; this is the net under them, so a value no check foresaw is still
 * the client's 422 and never a 500. The driver's message names SQL and is
 * not shown.
 */
export function dataException(error: unknown): ValidationProblem | undefined {
  if (!(error instanceof DatabaseError)) return undefined;
  const parent = error.parent as { code?: unknown; sqlMessage?: unknown; message?: string };
  const code = typeof parent.code === 'string' ? parent.code : '';
  const isData = /^22[0-9A-Z]{3}$/.test(code) || MYSQL_DATA_ERRORS.has(code) || SQLITE_DATA_ERRORS.has(code);
  if (!isData) return undefined;
  const column = /column '([^']+)'/i.exec(String(parent.sqlMessage ?? parent.message ?? ''))?.[1];
  return { ...(column ? { attribute: column } : {}), message: 'is not a value the database can store', code: 'invalid' };
}
