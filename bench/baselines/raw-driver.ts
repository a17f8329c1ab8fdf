import pg from 'pg';
import sqlite3 from 'sqlite3';
import { employeeDocument } from './hand-serializer.ts';

type Row = Record<string, unknown>;

/**
 * Baseline (b): the same document from the raw driver (`sqlite3`, or `pg`
 * for PostgreSQL) and the hand-written serializer: the practical limit of
 * this stack.
 */
export class RawDriver {
  private readonly sqlite?: sqlite3.Database;
  private readonly pool?: pg.Pool;

  /** A SQLite file path, or a PostgreSQL URL. */
  constructor(target: string) {
    if (target.startsWith('postgres')) this.pool = new pg.Pool({ connectionString: target, max: 5 });
    else this.sqlite = new sqlite3.Database(target, sqlite3.OPEN_READONLY);
  }

  /** `?` placeholders on both drivers. */
  async all(sql: string, params: unknown[] = []): Promise<Row[]> {
    if (this.pool) {
      let n = 0;
      return (await this.pool.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as Row[];
    }
    return new Promise((resolve, reject) => this.sqlite!.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as Row[]))));
  }

  close(): Promise<void> {
    if (this.pool) return this.pool.end();
    return new Promise((resolve) => this.sqlite!.close(() => resolve()));
  }

  async employeePage(size: number, include = true): Promise<unknown> {
    const [employees, [{ total: count }]] = (await Promise.all([
      this.all('SELECT id, first_name, last_name, age, created_at, updated_at FROM employees ORDER BY last_name ASC, id ASC LIMIT ?', [size]),
      this.all('SELECT COUNT(*) AS total FROM employees'),
    ])) as [Row[], [{ total: number | string }]];
    const total = Number(count);
    if (!include) return employeeDocument({ employees, positions: [], departments: [], teamLinks: [], total, size }, '', false);
    const ids = employees.map((e) => e.id);
    const marks = ids.map(() => '?').join(',');
    const [positions, teamRows] = await Promise.all([
      this.all(`SELECT id, title, active, rank, employee_id, department_id FROM positions WHERE employee_id IN (${marks}) ORDER BY id`, ids),
      this.all(`SELECT t.id, t.name, t.department_id, et.employee_id FROM teams t JOIN employee_teams et ON et.team_id = t.id WHERE et.employee_id IN (${marks}) ORDER BY t.id`, ids),
    ]);
    const departmentIds = [...new Set(positions.map((p) => p.department_id).filter((id) => id !== null))];
    const departments = departmentIds.length
      ? await this.all(`SELECT id, name FROM departments WHERE id IN (${departmentIds.map(() => '?').join(',')}) ORDER BY id`, departmentIds)
      : [];
    return employeeDocument({
      employees, positions, departments,
      teamLinks: teamRows.map((row) => ({ team: { id: row.id, name: row.name, department_id: row.department_id }, employee_id: row.employee_id })),
      total, size,
    });
  }
}
