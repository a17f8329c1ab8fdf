/**
 * The statements every hand-written baseline sends, in `?` form (the pg
 * baseline numbers them): the page, the count behind its pagination links,
 * then the page's positions and teams, then the positions' departments. An
 * `IN` list has one placeholder per value, so there is one statement per
 * list length.
 */
export const PAGE_SQL = 'SELECT id, first_name, last_name, age, created_at, updated_at FROM employees ORDER BY last_name ASC, id ASC LIMIT ?';
export const COUNT_SQL = 'SELECT COUNT(*) AS total FROM employees';

const marks = (count: number) => Array.from({ length: count }, () => '?').join(',');

export const positionsSql = (count: number) => `SELECT id, title, active, rank, employee_id, department_id FROM positions WHERE employee_id IN (${marks(count)}) ORDER BY id`;
export const teamsSql = (count: number) => `SELECT t.id, t.name, et.employee_id FROM teams t JOIN employee_teams et ON et.team_id = t.id WHERE et.employee_id IN (${marks(count)}) ORDER BY t.id`;
export const departmentsSql = (count: number) => `SELECT id, name FROM departments WHERE id IN (${marks(count)}) ORDER BY id`;

/** `?` → `$1`, `$2`, … */
export const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** The distinct department ids of positions, in first-seen order, nulls dropped. */
export function departmentIds(positions: readonly { department_id: number | null }[]): number[] {
  const ids = new Set<number>();
  for (const position of positions) if (position.department_id !== null) ids.add(position.department_id);
  return [...ids];
}

/** One prepared statement (or query config) per `IN` list length, made on first use. */
export class ByLength<T> {
  private readonly made: T[] = [];

  constructor(private readonly make: (count: number) => T) {}

  get(count: number): T {
    return (this.made[count] ??= this.make(count));
  }

  all(): T[] {
    return this.made.filter((made) => made !== undefined);
  }
}
