import type { Model, ModelStatic } from 'sequelize';
import type { ValidationProblem } from '../../core/index.ts';

interface ColumnType {
  key: string;
  _length?: number | string;
  _unsigned?: boolean;
  _precision?: number;
  _scale?: number;
}

const INTEGER_BITS: Record<string, number> = { TINYINT: 8, SMALLINT: 16, MEDIUMINT: 24, INTEGER: 32 };
/** MySQL's TEXT sizes in bytes; PostgreSQL and SQLite texts are unbounded. */
const MYSQL_TEXT_BYTES: Record<string, number> = { tiny: 255, '': 65_535, medium: 16_777_215 };

/**
 * What a record's changed values would make the database refuse: strings
 * longer than their column, integers outside its width, decimals with more
 * integer digits than its precision leaves. Checked before saving, on every
 * dialect, so the client gets a 422 pointing at the attribute instead of a
 * database error, and SQLite (which enforces none of these) behaves as the
 * others do.
 */
export function columnProblems(record: Model): ValidationProblem[] {
  const model = record.constructor as ModelStatic<Model>;
  const attributes = model.getAttributes() as Record<string, { type: ColumnType } | undefined>;
  const dialect = model.sequelize?.getDialect();
  const changed = record.changed() || [];
  const problems: ValidationProblem[] = [];
  for (const name of changed) {
    const type = attributes[name]?.type;
    const value: unknown = record.getDataValue(name);
    if (!type || value === null || value === undefined) continue;
    const message = problemWith(type, value, dialect);
    if (message) problems.push({ attribute: name, ...message });
  }
  return problems;
}

function problemWith(type: ColumnType, value: unknown, dialect: string | undefined): Omit<ValidationProblem, 'attribute'> | undefined {
  if (typeof value === 'string' && (type.key === 'STRING' || type.key === 'CHAR') && typeof type._length === 'number') {
    return tooLong(value, type._length);
  }
  if (typeof value === 'string' && type.key === 'TEXT' && (dialect === 'mysql' || dialect === 'mariadb')) {
    const bytes = MYSQL_TEXT_BYTES[String(type._length ?? '')];
    if (bytes !== undefined && Buffer.byteLength(value) > bytes) return { message: `is too long (maximum is ${bytes} bytes)`, code: 'too_long' };
  }
  const bits = INTEGER_BITS[type.key];
  if (bits !== undefined && typeof value === 'number') return outOfRange(value, bits, type._unsigned ?? false);
  if (type.key === 'DECIMAL' && type._precision !== undefined) return tooManyDigits(Number(value), type._precision, type._scale ?? 0);
  return undefined;
}

function tooLong(value: string, maximum: number) {
  // code units bound code points from above: count characters only when it could matter
  if (value.length <= maximum || [...value].length <= maximum) return undefined;
  return { message: `is too long (maximum is ${maximum} characters)`, code: 'too_long' };
}

function outOfRange(value: number, bits: number, unsigned: boolean) {
  const minimum = unsigned ? 0 : -(2 ** (bits - 1));
  const maximum = unsigned ? 2 ** bits - 1 : 2 ** (bits - 1) - 1;
  if (value >= minimum && value <= maximum) return undefined;
  return { message: `must be between ${minimum} and ${maximum}`, code: 'out_of_range' };
}

function tooManyDigits(value: number, precision: number, scale: number) {
  // the database rounds to `scale` places first, so 99.995 overflows DECIMAL(4,2)
  const limit = 10 ** (precision - scale) - 0.5 * 10 ** -scale;
  if (!Number.isFinite(value) || Math.abs(value) < limit) return undefined;
  return { message: `must have at most ${precision - scale} digits before the decimal point`, code: 'out_of_range' };
}
