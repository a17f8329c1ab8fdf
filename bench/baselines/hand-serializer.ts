/**
 * A careful developer's hand-written JSON:API serializer for one request:
 * `GET /api/v1/employees?include=positions.department,teams&page[size]=N`,
 * producing exactly the document Mural renders, as objects. Used by the
 * Sequelize baseline (a) and scenario 3's plain loop; it takes plain rows
 * (the driver baselines write their text directly: document-writer.ts).
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
          ? { data: (positionsOf.get(id) ?? []).map((pid) => ({ type: 'positions', id: pid })), links: relationshipLinks('employees', id, 'positions') }
          : { meta: { included: false }, links: relationshipLinks('employees', id, 'positions') },
        current_position: { meta: { included: false }, links: relationshipLinks('employees', id, 'current_position') },
        teams: included
          ? { data: (teamsOf.get(id) ?? []).sort((a, b) => Number(a) - Number(b)).map((tid) => ({ type: 'teams', id: tid })), links: relationshipLinks('employees', id, 'teams') }
          : { meta: { included: false }, links: relationshipLinks('employees', id, 'teams') },
        tasks: { meta: { included: false }, links: relationshipLinks('employees', id, 'tasks') },
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
        employee: { meta: { included: false }, links: relationshipLinks('positions', id, 'employee') },
        department: { data: department === null ? null : { type: 'departments', id: department }, links: relationshipLinks('positions', id, 'department') },
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
        department: { meta: { included: false }, links: relationshipLinks('teams', id, 'department') },
        employees: { meta: { included: false }, links: relationshipLinks('teams', id, 'employees') },
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
        positions: { meta: { included: false }, links: relationshipLinks('departments', id, 'positions') },
        teams: { meta: { included: false }, links: relationshipLinks('departments', id, 'teams') },
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

/** A relationship's links as the example serves them (`relationshipLinks: 'endpoints'`): its relationship and related endpoints. */
function relationshipLinks(type: string, id: string, name: string): { self: string; related: string } {
  return { self: `${NS}/${type}/${id}/relationships/${name}`, related: `${NS}/${type}/${id}/${name}` };
}
