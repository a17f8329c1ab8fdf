import sqlite3 from 'sqlite3';
import { sqliteTimestamp, writeEmployeePage, type DepartmentRow, type EmployeeRow, type PositionRow, type TeamLinkRow } from './document-writer.ts';
import { ByLength, COUNT_SQL, departmentIds, departmentsSql, PAGE_SQL, positionsSql, teamsSql } from './sql.ts';

/**
 * Baseline (b) on SQLite: node-sqlite3, the driver Mural itself uses, by
 * hand. Every statement is prepared once and reused (`all` on a prepared
 * statement takes one trip through libuv's thread pool; `db.all(sql)` would
 * prepare, run and finalize it each time), the page and its count are
 * issued together, then positions and teams together, then departments, and
 * the document is written as one string (document-writer.ts). node-sqlite3
 * queues the calls on one statement, so concurrent requests share them.
 */
export class SqliteBaseline {
  private readonly page: sqlite3.Statement;
  private readonly count: sqlite3.Statement;
  private readonly positions: ByLength<sqlite3.Statement>;
  private readonly teams: ByLength<sqlite3.Statement>;
  private readonly departments: ByLength<sqlite3.Statement>;

  private constructor(private readonly db: sqlite3.Database) {
    this.page = db.prepare(PAGE_SQL);
    this.count = db.prepare(COUNT_SQL);
    this.positions = new ByLength((n) => db.prepare(positionsSql(n)));
    this.teams = new ByLength((n) => db.prepare(teamsSql(n)));
    this.departments = new ByLength((n) => db.prepare(departmentsSql(n)));
  }

  /** Opens `file` read-only. */
  static async open(file: string): Promise<SqliteBaseline> {
    const db = await new Promise<sqlite3.Database>((resolve, reject) => {
      const opened = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(opened)));
    });
    return new SqliteBaseline(db);
  }

  /** The body of page 1 of employees, `size` to a page, with positions.department and teams when `include`. */
  readonly text = async (size: number, include: boolean): Promise<string> => {
    const [employees, [count]] = await Promise.all([all<EmployeeRow>(this.page, [size]), all<{ total: number }>(this.count, [])]);
    const total = count!.total;
    if (!include || employees.length === 0) {
      return writeEmployeePage({ employees, positions: [], teamLinks: [], departments: [], total, size, include }, sqliteTimestamp);
    }
    const ids = employees.map((employee) => employee.id);
    const [positions, teamLinks] = await Promise.all([
      all<PositionRow>(this.positions.get(ids.length), ids),
      all<TeamLinkRow>(this.teams.get(ids.length), ids),
    ]);
    const departmentsOf = departmentIds(positions);
    const departments = departmentsOf.length === 0 ? [] : await all<DepartmentRow>(this.departments.get(departmentsOf.length), departmentsOf);
    return writeEmployeePage({ employees, positions, teamLinks, departments, total, size, include }, sqliteTimestamp);
  };

  async close(): Promise<void> {
    const statements = [this.page, this.count, ...this.positions.all(), ...this.teams.all(), ...this.departments.all()];
    await Promise.all(statements.map((statement) => new Promise((resolve) => statement.finalize(resolve))));
    await new Promise<void>((resolve, reject) => this.db.close((error) => (error ? reject(error) : resolve())));
  }
}

function all<Row>(statement: sqlite3.Statement, params: unknown[]): Promise<Row[]> {
  return new Promise((resolve, reject) => statement.all(params, (error: Error | null, rows: Row[]) => (error ? reject(error) : resolve(rows))));
}
