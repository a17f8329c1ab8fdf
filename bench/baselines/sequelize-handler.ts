import express from 'express';
import { Op, QueryTypes, type WhereOptions } from 'sequelize';
import type { Fixture } from '../fixtures.ts';
import { employeeDocument } from './hand-serializer.ts';
import { parseEmployeesUrl } from './http-server.ts';

/**
 * Baseline (a): what a careful developer writes by hand with the same
 * Sequelize models: batched `IN` queries for the includes (no N+1), a count
 * for the pagination links, model instances turned into plain objects.
 */
export async function sequelizeEmployeePage(fixture: Fixture, size: number, include = true, filter?: { where: WhereOptions; query: string }): Promise<unknown> {
  const { Employee, Position, Department, Team } = fixture.models;
  const where = filter?.where;
  const [employees, total] = await Promise.all([
    Employee.findAll({ where, order: [['last_name', 'ASC'], ['id', 'ASC']], limit: size }),
    Employee.count({ where }),
  ]);
  const ids = employees.map((e) => e.id);
  if (!include) return employeeDocument({ employees: employees.map((e) => e.get({ plain: true })), positions: [], departments: [], teamLinks: [], total, size }, filter?.query ?? '', false);
  const [positions, teamRows] = await Promise.all([
    Position.findAll({ where: { employee_id: { [Op.in]: ids } }, order: [['id', 'ASC']] }),
    fixture.sequelize.query<Record<string, unknown>>(
      'SELECT t.id, t.name, t.department_id, et.employee_id FROM teams t JOIN employee_teams et ON et.team_id = t.id WHERE et.employee_id IN (:ids) ORDER BY t.id',
      { replacements: { ids }, type: QueryTypes.SELECT },
    ),
  ]);
  const departmentIds = [...new Set(positions.map((p) => p.department_id).filter((id) => id !== null))];
  const departments = await Department.findAll({ where: { id: { [Op.in]: departmentIds } }, order: [['id', 'ASC']] });
  void Team;
  return employeeDocument({
    employees: employees.map((e) => e.get({ plain: true })),
    positions: positions.map((p) => p.get({ plain: true })),
    departments: departments.map((d) => d.get({ plain: true })),
    teamLinks: teamRows.map((row) => ({ team: { id: row.id, name: row.name, department_id: row.department_id }, employee_id: row.employee_id })),
    total,
    size,
  });
}

/** The bytes (a) sends: the document with the `jsonapi` member Mural appends, through JSON.stringify. */
export async function sequelizeEmployeeText(fixture: Fixture, size: number, include: boolean): Promise<string> {
  return JSON.stringify({ ...(await sequelizeEmployeePage(fixture, size, include) as object), jsonapi: { version: '1.1' } });
}

/** (a) over HTTP: an Express app, as its careful developer would serve it. */
export function sequelizeApp(fixture: Fixture): express.Express {
  return express().get('/api/v1/employees', async (req, res) => {
    const query = parseEmployeesUrl(req.originalUrl);
    if (!query) {
      res.status(400).end();
      return;
    }
    res.type('application/vnd.api+json').send(await sequelizeEmployeeText(fixture, query.size, query.include));
  });
}
