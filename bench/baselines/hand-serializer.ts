/**
 * A careful developer's hand-written JSON:API serializer for one request:
 * `GET /api/v1/employees?include=positions.department,teams&page[size]=N`,
 * producing exactly the document Mural renders. Shared by the Sequelize and
 * raw-driver baselines; it takes plain rows.
 */
type Row = Record<string, unknown>;

export interface EmployeePage {
  employees: Row[];
  positions: Row[];
  departments: Row[];
  /** Team rows, each with the employee id it was joined through. */
  teamLinks: Array<{ team: Row; employee_id: unknown }>;
  total: number;
  size: number;
}

const NS = '/api/v1';

const iso = (value: unknown) => (value === null || value === undefined ? null : (value instanceof Date ? value : new Date(String(value).replace(' ', 'T').replace(' ', ''))).toISOString());
const bool = (value: unknown) => value === true || value === 1 || value === '1';

export function employeeDocument(page: EmployeePage, query = 'include=positions.department,teams', included = true): unknown {
  const positionsOf = new Map<string, string[]>();
  for (const p of page.positions) {
    const key = String(p.employee_id);
    let list = positionsOf.get(key);
    if (!list) positionsOf.set(key, (list = []));
    list.push(String(p.id));
  }
  const teamsOf = new Map<string, string[]>();
  const teams = new Map<string, Row>();
  for (const { team, employee_id } of page.teamLinks) {
    const key = String(employee_id);
    let list = teamsOf.get(key);
    if (!list) teamsOf.set(key, (list = []));
    list.push(String(team.id));
    teams.set(String(team.id), team);
  }
  const data = page.employees.map((e) => {
    const id = String(e.id);
    return {
      id,
      type: 'employees',
      attributes: { first_name: e.first_name, last_name: e.last_name, age: e.age ?? null, created_at: iso(e.created_at), updated_at: iso(e.updated_at) },
      relationships: {
        positions: included
          ? { data: (positionsOf.get(id) ?? []).map((pid) => ({ type: 'positions', id: pid })), links: { related: `${NS}/positions?filter[employee_id]=${id}` } }
          : { meta: { included: false }, links: { related: `${NS}/positions?filter[employee_id]=${id}` } },
        current_position: { meta: { included: false }, links: { related: `${NS}/positions?filter[employee_id]=${id}` } },
        teams: included
          ? { data: (teamsOf.get(id) ?? []).sort((a, b) => Number(a) - Number(b)).map((tid) => ({ type: 'teams', id: tid })), links: { related: `${NS}/teams?filter[employee_id]=${id}` } }
          : { meta: { included: false }, links: { related: `${NS}/teams?filter[employee_id]=${id}` } },
        tasks: { meta: { included: false }, links: { related: `${NS}/tasks?filter[employee_id]=${id}` } },
      },
    };
  });
  const includedObjects: unknown[] = [];
  for (const p of page.positions) {
    const id = String(p.id);
    const department = p.department_id === null || p.department_id === undefined ? null : String(p.department_id);
    includedObjects.push({
      id,
      type: 'positions',
      attributes: { title: p.title, active: bool(p.active), rank: p.rank ?? null },
      relationships: {
        employee: { meta: { included: false }, links: { related: `${NS}/employees?filter[id]=${p.employee_id}` } },
        department: department === null ? { data: null } : { data: { type: 'departments', id: department }, links: { related: `${NS}/departments?filter[id]=${department}` } },
      },
    });
  }
  for (const team of [...teams.values()].sort((a, b) => Number(a.id) - Number(b.id))) {
    const id = String(team.id);
    includedObjects.push({
      id,
      type: 'teams',
      attributes: { name: team.name },
      relationships: {
        department: { meta: { included: false }, ...(team.department_id === null ? {} : { links: { related: `${NS}/departments?filter[id]=${team.department_id}` } }) },
        employees: { meta: { included: false }, links: { related: `${NS}/employees?filter[team_id]=${id}` } },
      },
    });
  }
  for (const d of page.departments) {
    const id = String(d.id);
    includedObjects.push({
      id,
      type: 'departments',
      attributes: { name: d.name },
      relationships: {
        positions: { meta: { included: false }, links: { related: `${NS}/positions?filter[department_id]=${id}` } },
        teams: { meta: { included: false }, links: { related: `${NS}/teams?filter[department_id]=${id}` } },
      },
    });
  }
  const link = (n: number) => `${NS}/employees?${query ? `${query}&` : ''}page[number]=${n}&page[size]=${page.size}`;
  const last = Math.max(1, Math.ceil(page.total / page.size));
  const links: Record<string, string> = { self: link(1), first: link(1) };
  if (last > 1) links.next = link(2);
  links.last = link(last);
  return includedObjects.length > 0 ? { data, meta: {}, included: includedObjects, links } : { data, meta: {}, links };
}
