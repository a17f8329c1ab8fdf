/**
 * The hand-written baselines' JSON:API writer: the document of
 * `GET /api/v1/employees?include=positions.department,teams&page[size]=N`
 * (or `?page[size]=N`), page 1, written straight into one string, byte for
 * byte what Mural's HTTP server sends (member order, links, `meta`, the
 * `jsonapi` member it appends). No intermediate objects and no
 * `JSON.stringify` of the document: strings are checked for characters JSON
 * must escape and stringified only when they have one. Shared by the
 * node-sqlite3, better-sqlite3 and pg baselines, which hand it their rows and
 * a function turning their timestamps into ISO 8601 text.
 */

export interface EmployeeRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  age: number | null;
  created_at: unknown;
  updated_at: unknown;
}

export interface PositionRow {
  id: number;
  title: string | null;
  /** 0/1 on SQLite, a boolean on PostgreSQL. */
  active: unknown;
  rank: number | null;
  employee_id: number;
  department_id: number | null;
}

/** A team, once per employee of the page that belongs to it, ordered by team id. */
export interface TeamLinkRow {
  id: number;
  name: string | null;
  employee_id: number;
}

export interface DepartmentRow {
  id: number;
  name: string | null;
}

export interface EmployeePageRows {
  employees: readonly EmployeeRow[];
  /** Ordered by id; empty without the include. */
  positions: readonly PositionRow[];
  teamLinks: readonly TeamLinkRow[];
  /** Ordered by id. */
  departments: readonly DepartmentRow[];
  /** Every employee, for the pagination links. */
  total: number;
  size: number;
  include: boolean;
}

/** A driver's timestamp → `2020-01-30T00:00:00.000Z`. */
export type TimestampText = (value: unknown) => string;

export const INCLUDE_PARAMETER = 'positions.department,teams';
const NS = '/api/v1';
const NOT_INCLUDED = '{"meta":{"included":false},"links":';
const JSONAPI = ',"jsonapi":{"version":"1.1"}}';

/** Characters JSON.stringify would escape: quotes, backslashes, control characters and surrogates (lone ones become \u escapes). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

export function stringValue(value: string | null): string {
  if (value === null) return 'null';
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

const numberValue = (value: number | null): string => (value === null ? 'null' : String(value));

function booleanValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  return value === true || value === 1 ? 'true' : 'false';
}

function timestampValue(value: unknown, timestamp: TimestampText): string {
  return value === null || value === undefined ? 'null' : `"${timestamp(value)}"`;
}

/**
 * A relationship's `links` as the example serves them (`relationshipLinks:
 * 'endpoints'`), and the `}` closing the relationship: links come last.
 */
function linksAndClose(type: string, id: string, name: string): string {
  return `{"self":"${NS}/${type}/${id}/relationships/${name}","related":"${NS}/${type}/${id}/${name}"}}`;
}

/** The whole document, with the `jsonapi` member Mural appends. */
export function writeEmployeePage(page: EmployeePageRows, timestamp: TimestampText): string {
  const positionsOf = page.include ? linkageByEmployee(page.positions, 'positions') : undefined;
  const teamsOf = page.include ? linkageByEmployee(page.teamLinks, 'teams') : undefined;
  let out = '{"data":[';
  const employees = page.employees;
  for (let i = 0; i < employees.length; i++) {
    if (i > 0) out += ',';
    out += employeeObject(employees[i]!, timestamp, positionsOf, teamsOf);
  }
  out += '],"meta":{}';
  const included = page.include ? includedObjects(page) : '';
  if (included !== '') out += `,"included":[${included}]`;
  return `${out},"links":${paginationLinks(page)}${JSONAPI}`;
}

/** Per employee id, the `[{"type":…,"id":…},…]` of the rows naming it, in row order. */
function linkageByEmployee(rows: readonly { id: number; employee_id: number }[], type: string): Map<number, string> {
  const linkage = new Map<number, string>();
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const identifier = `{"type":"${type}","id":"${row.id}"}`;
    const before = linkage.get(row.employee_id);
    linkage.set(row.employee_id, before === undefined ? identifier : `${before},${identifier}`);
  }
  return linkage;
}

function employeeObject(employee: EmployeeRow, timestamp: TimestampText, positionsOf?: Map<number, string>, teamsOf?: Map<number, string>): string {
  const id = String(employee.id);
  const toMany = (name: string, linkage: Map<number, string> | undefined) => (linkage === undefined
    ? NOT_INCLUDED + linksAndClose('employees', id, name)
    : `{"data":[${linkage.get(employee.id) ?? ''}],"links":${linksAndClose('employees', id, name)}`);
  return `{"id":"${id}","type":"employees","attributes":{"first_name":${stringValue(employee.first_name)},"last_name":${stringValue(employee.last_name)}`
    + `,"age":${numberValue(employee.age)},"created_at":${timestampValue(employee.created_at, timestamp)},"updated_at":${timestampValue(employee.updated_at, timestamp)}}`
    + `,"relationships":{"positions":${toMany('positions', positionsOf)}`
    + `,"current_position":${NOT_INCLUDED}${linksAndClose('employees', id, 'current_position')}`
    + `,"teams":${toMany('teams', teamsOf)}`
    + `,"tasks":${NOT_INCLUDED}${linksAndClose('employees', id, 'tasks')}}}`;
}

/** Positions, then teams, then departments, each by id, comma-separated. */
function includedObjects(page: EmployeePageRows): string {
  const parts: string[] = [];
  for (const position of page.positions) parts.push(positionObject(position));
  let lastTeam: number | undefined;
  for (const team of page.teamLinks) {
    // one row per (team, employee), ordered by team id: a team shared by two employees comes twice in a row
    if (team.id === lastTeam) continue;
    lastTeam = team.id;
    parts.push(teamObject(team));
  }
  for (const department of page.departments) parts.push(departmentObject(department));
  return parts.join(',');
}

function positionObject(position: PositionRow): string {
  const id = String(position.id);
  const department = position.department_id === null ? 'null' : `{"type":"departments","id":"${position.department_id}"}`;
  return `{"id":"${id}","type":"positions","attributes":{"title":${stringValue(position.title)},"active":${booleanValue(position.active)},"rank":${numberValue(position.rank)}}`
    + `,"relationships":{"employee":${NOT_INCLUDED}${linksAndClose('positions', id, 'employee')}`
    + `,"department":{"data":${department},"links":${linksAndClose('positions', id, 'department')}}}`;
}

function teamObject(team: TeamLinkRow): string {
  const id = String(team.id);
  return `{"id":"${id}","type":"teams","attributes":{"name":${stringValue(team.name)}}`
    + `,"relationships":{"department":${NOT_INCLUDED}${linksAndClose('teams', id, 'department')}`
    + `,"employees":${NOT_INCLUDED}${linksAndClose('teams', id, 'employees')}}}`;
}

function departmentObject(department: DepartmentRow): string {
  const id = String(department.id);
  return `{"id":"${id}","type":"departments","attributes":{"name":${stringValue(department.name)}}`
    + `,"relationships":{"positions":${NOT_INCLUDED}${linksAndClose('departments', id, 'positions')}`
    + `,"teams":${NOT_INCLUDED}${linksAndClose('departments', id, 'teams')}}}`;
}

/** Page 1's links: self, first, next when there is a second page, last. */
function paginationLinks(page: EmployeePageRows): string {
  const prefix = `${NS}/employees?${page.include ? `include=${INCLUDE_PARAMETER}&` : ''}page[number]=`;
  const suffix = `&page[size]=${page.size}"`;
  const first = `"${prefix}1${suffix}`;
  const last = Math.max(1, Math.ceil(page.total / page.size));
  const next = last > 1 ? `,"next":"${prefix}2${suffix}` : '';
  return `{"self":${first},"first":${first}${next},"last":"${prefix}${last}${suffix}}`;
}

/** SQLite's text as Sequelize stores it in UTC, `2020-01-30 00:00:00.000 +00:00`, or anything Date parses. */
export function sqliteTimestamp(value: unknown): string {
  if (typeof value === 'string' && value.length === 29 && value.endsWith(' +00:00')) return `${value.slice(0, 10)}T${value.slice(11, 23)}Z`;
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}

/**
 * PostgreSQL's text of a `timestamptz` in a UTC session, `2020-01-30
 * 00:00:00+00` or with up to six fraction digits (truncated to
 * milliseconds, as a Date truncates them), or a Date.
 */
export function postgresTimestamp(value: unknown): string {
  if (typeof value === 'string' && value.length >= 22 && value.endsWith('+00') && value.charCodeAt(10) === 32) {
    const fraction = value.length > 22 ? value.slice(20, value.length - 3) : '';
    return `${value.slice(0, 10)}T${value.slice(11, 19)}.${`${fraction}000`.slice(0, 3)}Z`;
  }
  return (value instanceof Date ? value : new Date(String(value))).toISOString();
}
