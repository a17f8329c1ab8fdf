import Database from 'better-sqlite3';
import { sqliteTimestamp, writeEmployeePage, type DepartmentRow, type EmployeeRow, type PositionRow, type TeamLinkRow } from './document-writer.ts';
import { ByLength, COUNT_SQL, departmentIds, departmentsSql, PAGE_SQL, positionsSql, teamsSql } from './sql.ts';

/**
 * Baseline (c) on SQLite: better-sqlite3, the fastest SQLite driver for
 * Node, by hand: synchronous prepared statements on a read-only connection
 * to the same file, the same statements as (b), the same writer. Each
 * request runs to its end without yielding: no thread-pool trips, no
 * callbacks. Mural is not built on this driver (Sequelize speaks
 * node-sqlite3), so (c) is reported without a target.
 */
export class BetterSqliteBaseline {
  private readonly db: Database.Database;
  private readonly page: Database.Statement<[number], EmployeeRow>;
  private readonly count: Database.Statement<[], number>;
  private readonly positions: ByLength<Database.Statement<number[], PositionRow>>;
  private readonly teams: ByLength<Database.Statement<number[], TeamLinkRow>>;
  private readonly departments: ByLength<Database.Statement<number[], DepartmentRow>>;

  constructor(file: string) {
    const db = (this.db = new Database(file, { readonly: true }));
    this.page = db.prepare<[number], EmployeeRow>(PAGE_SQL);
    this.count = db.prepare<[], number>(COUNT_SQL).pluck();
    this.positions = new ByLength((n) => db.prepare<number[], PositionRow>(positionsSql(n)));
    this.teams = new ByLength((n) => db.prepare<number[], TeamLinkRow>(teamsSql(n)));
    this.departments = new ByLength((n) => db.prepare<number[], DepartmentRow>(departmentsSql(n)));
  }

  /** The body of page 1 of employees, `size` to a page, with positions.department and teams when `include`. */
  readonly text = async (size: number, include: boolean): Promise<string> => this.textNow(size, include);

  textNow(size: number, include: boolean): string {
    const employees = this.page.all(size);
    const total = this.count.get()!;
    if (!include || employees.length === 0) {
      return writeEmployeePage({ employees, positions: [], teamLinks: [], departments: [], total, size, include }, sqliteTimestamp);
    }
    const ids = employees.map((employee) => employee.id);
    const positions = this.positions.get(ids.length).all(...ids);
    const teamLinks = this.teams.get(ids.length).all(...ids);
    const departmentsOf = departmentIds(positions);
    const departments = departmentsOf.length === 0 ? [] : this.departments.get(departmentsOf.length).all(...departmentsOf);
    return writeEmployeePage({ employees, positions, teamLinks, departments, total, size, include }, sqliteTimestamp);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
