import { BaseError, ForeignKeyConstraintError, UniqueConstraintError, type Model, type ModelStatic } from 'sequelize';
import type { ConstraintViolation } from '../../core/index.ts';

type Kind = ConstraintViolation['kind'];

/** PostgreSQL's SQLSTATEs of class 23 ("integrity constraint violation") Mural answers. */
const POSTGRES = new Map<string, Kind>([['23502', 'not_null'], ['23503', 'foreign_key'], ['23505', 'unique'], ['23514', 'check']]);
/** MySQL and MariaDB error numbers: 1048 column cannot be null, 1451/1452 foreign key (parent/child), 1062 duplicate, 3819 (MySQL) and 4025 (MariaDB) check. */
const MYSQL = new Map<string, Kind>([['1048', 'not_null'], ['1451', 'foreign_key'], ['1452', 'foreign_key'], ['1062', 'unique'], ['3819', 'check'], ['4025', 'check']]);
/** SQLite says which constraint only in its message (`SQLITE_CONSTRAINT: NOT NULL constraint failed: t.c`). */
const SQLITE = /\b(NOT NULL|FOREIGN KEY|UNIQUE|CHECK) constraint failed(?::\s*(.*))?/;
const SQLITE_KINDS = new Map<string, Kind>([['NOT NULL', 'not_null'], ['FOREIGN KEY', 'foreign_key'], ['UNIQUE', 'unique'], ['CHECK', 'check']]);

/** What the driver left on the error Sequelize wraps: codes, and the parts of its message that name columns. */
interface DriverError {
  code?: unknown;
  errno?: unknown;
  message?: unknown;
  sqlMessage?: unknown;
  detail?: unknown;
  column?: unknown;
  constraint?: unknown;
}

/**
 * The integrity constraint a Sequelize (or driver) error reports, with the
 * columns it names mapped onto `model`'s attributes; undefined for any
 * other error. SQLite reports NOT NULL and CHECK failures through
 * Sequelize's UniqueConstraintError (it reads every SQLITE_CONSTRAINT as
 * one), so the driver's own code and message decide, not the class.
 */
export function constraintViolation(error: unknown, model?: ModelStatic<Model>, record?: Model): ConstraintViolation | undefined {
  const driver = driverError(error);
  const found = classify(error, driver);
  if (!found) return undefined;
  const attributes = found.columns.map((column) => attributeOf(model, column)).filter((name): name is string => name !== undefined);
  const guessed = attributes.length > 0 ? undefined : guessedAttribute(found, model, record);
  return { kind: found.kind, ...(found.side ? { side: found.side } : {}), attributes: guessed ? [guessed] : [...new Set(attributes)] };
}

/** For a violation whose error names no column: the attribute the constraint's name or the record's changes point to. */
function guessedAttribute(found: Classified, model: ModelStatic<Model> | undefined, record: Model | undefined): string | undefined {
  if (found.kind === 'check') return checkedAttribute(model, found.constraint);
  if (found.kind === 'foreign_key' && found.side !== 'referenced') return changedForeignKey(model, record);
  return undefined;
}

interface Classified {
  kind: Kind;
  side?: 'referenced' | 'missing';
  columns: string[];
  constraint?: string;
}

function classify(error: unknown, driver: DriverError): Classified | undefined {
  const text = String(driver.sqlMessage ?? driver.message ?? '');
  const code = String(driver.code ?? '');
  const errno = String(driver.errno ?? '');
  const sqlite = code.startsWith('SQLITE_CONSTRAINT') ? SQLITE.exec(text) : null;
  const kind = POSTGRES.get(code) ?? MYSQL.get(errno) ?? (sqlite ? SQLITE_KINDS.get(sqlite[1]!) : undefined) ?? sequelizeKind(error);
  if (!kind) return undefined;
  if (kind === 'foreign_key') return { kind, side: foreignKeySide(error, errno, text), columns: foreignKeyColumns(error, driver, text) };
  if (kind === 'unique') return { kind, columns: uniqueColumns(error, sqlite?.[2]) };
  if (kind === 'not_null') return { kind, columns: compact([driver.column, /column '([^']+)'/i.exec(text)?.[1], qualified(sqlite?.[2])[0]]) };
  const constraint = compact([driver.constraint, /constraint '([^']+)'/i.exec(text)?.[1], /CONSTRAINT `([^`]+)`/.exec(text)?.[1], sqlite?.[2]])[0];
  return { kind, columns: [], ...(constraint ? { constraint } : {}) };
}

/** Errors Sequelize classified without a driver code this file knows (another dialect, a driver wrapped differently). */
function sequelizeKind(error: unknown): Kind | undefined {
  if (error instanceof ForeignKeyConstraintError) return 'foreign_key';
  if (error instanceof UniqueConstraintError) return 'unique';
  return undefined;
}

function foreignKeySide(error: unknown, errno: string, text: string): 'referenced' | 'missing' | undefined {
  const reltype = error instanceof ForeignKeyConstraintError ? (error as { reltype?: unknown }).reltype : undefined;
  if (reltype === 'parent' || errno === '1451' || /^update or delete on table/.test(text)) return 'referenced';
  if (reltype === 'child' || errno === '1452' || /^insert or update on table/.test(text)) return 'missing';
  return undefined;
}

/** The referencing columns: MySQL's `FOREIGN KEY (`c`)`, PostgreSQL's `Key (c)=(v) is not present`. */
function foreignKeyColumns(error: unknown, driver: DriverError, text: string): string[] {
  const fields = error instanceof ForeignKeyConstraintError ? (error as { fields?: unknown }).fields : undefined;
  if (Array.isArray(fields)) return fields.map(String);
  const detail = /Key \(([^)]+)\)=\(.*\) is not present/.exec(String(driver.detail ?? ''));
  if (detail) return detail[1]!.split(', ').map((column) => column.replace(/"/g, ''));
  const mysql = /FOREIGN KEY \(([^)]+)\) REFERENCES/.exec(text);
  return mysql ? mysql[1]!.split(',').map((column) => column.trim().replace(/[`"]/g, '')) : [];
}

function uniqueColumns(error: unknown, sqliteColumns: string | undefined): string[] {
  if (sqliteColumns) return qualified(sqliteColumns);
  const fields = error instanceof UniqueConstraintError ? error.fields : undefined;
  if (Array.isArray(fields)) return fields.map(String);
  return fields && typeof fields === 'object' ? Object.keys(fields) : [];
}

/** `t.a, t.b` (SQLite's way of naming columns) → `a`, `b`. */
function qualified(list: string | undefined): string[] {
  if (!list) return [];
  return list.split(',').map((column) => column.trim().split('.').pop()!).filter(Boolean);
}

/** The attribute stored in `column`, by Sequelize's `field` mapping; the column itself when there is no model to ask. */
function attributeOf(model: ModelStatic<Model> | undefined, column: string): string | undefined {
  if (!model) return column;
  // MySQL and MariaDB name the index, not its columns: `PRIMARY` is the primary key's
  if (column === 'PRIMARY') return model.primaryKeyAttribute;
  const attributes = model.getAttributes() as Record<string, { field?: string }>;
  if (column in attributes && (attributes[column]!.field ?? column) === column) return column;
  return Object.entries(attributes).find(([, definition]) => definition.field === column)?.[0];
}

/**
 * A check constraint names no column, but its name (`gadgets_weight_check`,
 * MariaDB's column check named after its column) or SQLite's expression
 * (`weight >= 0`) usually holds one: the column the text names, when it
 * names exactly one (the longest, when one column's name contains another's).
 */
function checkedAttribute(model: ModelStatic<Model> | undefined, constraint: string | undefined): string | undefined {
  if (!model || !constraint) return undefined;
  const attributes = model.getAttributes() as Record<string, { field?: string }>;
  const named = Object.entries(attributes).map(([name, definition]) => ({ name, column: definition.field ?? name })).filter(({ column }) => mentions(constraint, column));
  const outermost = named.filter((a) => !named.some((b) => b !== a && b.column.includes(a.column)));
  return outermost.length === 1 ? outermost[0]!.name : undefined;
}

/**
 * SQLite's foreign-key failure names no column: the one key of the record
 * this save set (a column with a `references`), when it set exactly one.
 */
function changedForeignKey(model: ModelStatic<Model> | undefined, record: Model | undefined): string | undefined {
  if (!model || !record || typeof record.changed !== 'function') return undefined;
  const changed = record.changed();
  if (!changed) return undefined;
  const attributes = model.getAttributes() as Record<string, { references?: unknown }>;
  const keys = changed.filter((name) => attributes[name]?.references !== undefined && record.get(name) !== null);
  return keys.length === 1 ? keys[0] : undefined;
}

function mentions(text: string, column: string): boolean {
  const escaped = column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^A-Za-z0-9])${escaped}(?:[^A-Za-z0-9]|$)`).test(text);
}

/** The driver's error: Sequelize keeps it as `parent` (and `original`). */
function driverError(error: unknown): DriverError {
  if (!(error instanceof BaseError)) return typeof error === 'object' && error !== null ? (error as DriverError) : {};
  const parent = (error as { parent?: unknown }).parent;
  return typeof parent === 'object' && parent !== null ? (parent as DriverError) : {};
}

function compact(values: unknown[]): string[] {
  return values.filter((value): value is string => typeof value === 'string' && value !== '');
}
