import { deepStrictEqual } from 'node:assert';
import { Op, Sequelize } from 'sequelize';
import { jsonapiMember, parseQueryString, type WriteDocument } from '../core/index.ts';
import { sequelizeEmployeePage } from './baselines/sequelize-handler.ts';
import type { Fixture } from './fixtures.ts';

export const INCLUDE_QUERY = 'include=positions.department,teams&page[size]=20';

/** The two read requests of scenarios 1 and 2, both on page 1 of employees. */
export interface ReadRequest {
  label: string;
  size: number;
  include: boolean;
  /** The query string, without `?`. */
  query: string;
  /** Path and query string. */
  path: string;
}

const readRequest = (label: string, size: number, include: boolean): ReadRequest => {
  const query = include ? `include=positions.department,teams&page[size]=${size}` : `page[size]=${size}`;
  return { label, size, include, query, path: `/api/v1/employees?${query}` };
};

export const INCLUDE_REQUEST = readRequest('include, page[size]=20', 20, true);
export const PAGE_100_REQUEST = readRequest('no include, page[size]=100', 100, false);
export const READ_REQUESTS: readonly ReadRequest[] = [INCLUDE_REQUEST, PAGE_100_REQUEST];

/** A fresh proxy for an employees query, per call, with the request the HTTP path gives it (its links). */
export function muralProxy(fixture: Fixture, query: string) {
  const { EmployeeResource } = fixture.resources;
  class BenchEmployees extends EmployeeResource {
    static {
      this.type = 'employees';
      this.maxPageSize = 20_000;
      this.maxIncludedRecords = 200_000; // the scaling scenarios sideload every record on purpose
    }
  }
  const params = parseQueryString(query);
  const request = { path: '/api/v1/employees', query, action: 'index' as const };
  return () => BenchEmployees.all(params, undefined, { request });
}

/** Mural's in-process document for an employees query, with the links the HTTP path adds. */
export function muralPage(fixture: Fixture, query: string) {
  const proxy = muralProxy(fixture, query);
  return () => proxy().toJsonapi();
}

/**
 * The bytes Mural's HTTP server sends for `proxy`'s document, built
 * in-process the way its read handlers build them: `toJsonapiText` with
 * the `jsonapi` member.
 */
export function muralDocumentText(proxy: { toJsonapiText(trailing: Record<string, unknown>): Promise<string> }): Promise<string> {
  return proxy.toJsonapiText({ jsonapi: jsonapiMember({ ext: [] }) });
}

/** Baseline for scenario 4: the same graph written by hand with Sequelize. */
export async function handWrittenCreate(fixture: Fixture, n: number): Promise<void> {
  const { Employee, Position, Department } = fixture.models;
  await fixture.sequelize.transaction(async (transaction) => {
    const employee = await Employee.create({ first_name: 'Bench', last_name: `Hand ${n}` }, { transaction });
    for (let i = 0; i < 3; i++) {
      const department = await Department.create({ name: `Dept ${n}-${i}` }, { transaction });
      await Position.create({ title: `Role ${i}`, employee_id: employee.id, department_id: department.id }, { transaction });
    }
  });
}

export function muralCreatePayload(n: number): WriteDocument {
  const positions = [0, 1, 2].map((i) => ({ type: 'positions', 'temp-id': `p${i}`, method: 'create' as const }));
  const included = [0, 1, 2].flatMap((i) => [
    { type: 'positions', 'temp-id': `p${i}`, attributes: { title: `Role ${i}` }, relationships: { department: { data: { type: 'departments', 'temp-id': `d${i}`, method: 'create' as const } } } },
    { type: 'departments', 'temp-id': `d${i}`, attributes: { name: `Dept ${n}-${i}` } },
  ]);
  return { data: { type: 'employees', attributes: { first_name: 'Bench', last_name: `Mural ${n}` }, relationships: { positions: { data: positions } } }, included };
}

/** Scenario 7's filter: employees holding a position in a department so named (any case). */
export const HAS_QUERY = 'filter[has][positions.department.name]=engineering&page[size]=20';

/**
 * Scenario 7: `filter[has]` against the same filter written by hand with
 * Sequelize, a semi-join subquery in the WHERE clause (no join, so no
 * duplicate employees and a plain count), after checking both answer the
 * same document.
 */
export async function relatedFilterContenders(fixture: Fixture) {
  const mural = muralPage(fixture, HAS_QUERY);
  const engineers = Sequelize.literal(
    "(SELECT p.employee_id FROM positions AS p JOIN departments AS d ON d.id = p.department_id WHERE lower(d.name) = 'engineering' AND p.employee_id IS NOT NULL)",
  );
  const filter = { where: { id: { [Op.in]: engineers } }, query: 'filter[has][positions.department.name]=engineering' };
  const handWritten = () => sequelizeEmployeePage(fixture, 20, false, filter);
  // the filter's result: the same records, in the same order, with the same pagination links
  const outcome = (doc: unknown) => {
    const { data, links, meta } = JSON.parse(JSON.stringify(doc)) as { data: Array<{ id: string; attributes: unknown }>; links: unknown; meta: unknown };
    return { data: data.map((r) => [r.id, r.attributes]), links, meta };
  };
  deepStrictEqual(outcome(await handWritten()), outcome(await mural()), 'the Sequelize baseline must find the same employees');
  return { mural, sequelize: handWritten };
}
