import sqlite3 from 'sqlite3';
import { employeeDocument } from './hand-serializer.ts';

type Row = Record<string, unknown>;

/**
 * Baseline (b): the same document from the raw `sqlite3` driver and the
 * hand-written serializer: the practical limit of this stack.
 */
export class RawDriver {
  private readonly db: sqlite3.Database;

  constructor(file: string) {
    this.db = new sqlite3.Database(file, sqlite3.OPEN_READONLY);
  }

  all(sql: string, params: unknown[] = []): Promise<Row[]> {
    return new Promise((resolve, reject) => this.db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows as Row[]))));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.db.close(() => resolve()));
  }

  async employeePage(size: number, include = true): Promise<unknown> {
    const [employees, [{ total }]] = (await Promise.all([
      this.all('SELECT id, first_name, last_name, age, created_at, updated_at FROM employees ORDER BY last_name ASC, id ASC LIMIT ?', [size]),
      this.all('SELECT COUNT(*) AS total FROM employees'),
    ])) as [Row[], [{ total: number }]];
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
