import pg from 'pg';
import { postgresTimestamp, writeEmployeePage, type DepartmentRow, type EmployeeRow, type PositionRow, type TeamLinkRow } from './document-writer.ts';
import { ByLength, COUNT_SQL, departmentIds, departmentsSql, numbered, PAGE_SQL, positionsSql, teamsSql } from './sql.ts';

/** PostgreSQL's type oid for `timestamp with time zone`. */
const TIMESTAMPTZ = 1184;

/** A named statement: pg parses it once per connection and binds it afterwards. */
interface Named {
  name: string;
  text: string;
}

const named = (name: string, sql: string): Named => ({ name, text: numbered(sql) });

/**
 * Baseline (b) on PostgreSQL: pg by hand. A pool of as many connections as
 * Mural's (Sequelize's default, 5), named prepared statements, the page and
 * its count sent together on two connections, then positions and teams
 * together, then departments, and the document written as one string
 * (document-writer.ts). Timestamps stay PostgreSQL's text in a UTC session
 * and become ISO 8601 by slicing, not through a Date (Mural's plain rows do
 * the same).
 */
export class PgBaseline {
  private readonly pool: pg.Pool;
  private readonly page = named('baseline_page', PAGE_SQL);
  private readonly count = named('baseline_count', COUNT_SQL);
  private readonly positions = new ByLength((n) => named(`baseline_positions_${n}`, positionsSql(n)));
  private readonly teams = new ByLength((n) => named(`baseline_teams_${n}`, teamsSql(n)));
  private readonly departments = new ByLength((n) => named(`baseline_departments_${n}`, departmentsSql(n)));

  constructor(url: string, max = 5) {
    const text = (value: string) => value;
    const types = { getTypeParser: (oid: number, format?: string) => (oid === TIMESTAMPTZ && format !== 'binary' ? text : pg.types.getTypeParser(oid, format as 'text')) };
    this.pool = new pg.Pool({ connectionString: url, max, options: '-c TimeZone=UTC', types: types as pg.CustomTypesConfig });
  }

  /** The body of page 1 of employees, `size` to a page, with positions.department and teams when `include`. */
  readonly text = async (size: number, include: boolean): Promise<string> => {
    const [employees, [count]] = await Promise.all([this.rows<EmployeeRow>(this.page, [size]), this.rows<{ total: string }>(this.count, [])]);
    const total = Number(count!.total);
    if (!include || employees.length === 0) {
      return writeEmployeePage({ employees, positions: [], teamLinks: [], departments: [], total, size, include }, postgresTimestamp);
    }
    const ids = employees.map((employee) => employee.id);
    const [positions, teamLinks] = await Promise.all([
      this.rows<PositionRow>(this.positions.get(ids.length), ids),
      this.rows<TeamLinkRow>(this.teams.get(ids.length), ids),
    ]);
    const departmentsOf = departmentIds(positions);
    const departments = departmentsOf.length === 0 ? [] : await this.rows<DepartmentRow>(this.departments.get(departmentsOf.length), departmentsOf);
    return writeEmployeePage({ employees, positions, teamLinks, departments, total, size, include }, postgresTimestamp);
  };

  private async rows<Row>(statement: Named, values: unknown[]): Promise<Row[]> {
    return (await this.pool.query({ name: statement.name, text: statement.text, values })).rows as Row[];
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
