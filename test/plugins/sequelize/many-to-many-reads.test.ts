import test from 'ava';
import type { JsonApiDocument, QueryParams, ResourceObject } from '../../../core/index.ts';
import { testDatabases } from '../../support/databases.ts';
import { openDirectory, type Directory } from '../../support/directory.ts';

type Linkage = { type: string; id: string };
const data = (doc: JsonApiDocument) => doc.data as ResourceObject[];
const linked = (object: ResourceObject, name: string) => ((object.relationships![name] as { data: Linkage[] }).data ?? []).map((l) => l.id);

/**
 * A many_to_many include reads plain rows with one join (one row per link,
 * folded back to one record per related row) and model instances with a
 * correlated subquery. Both must answer the same document, whatever the
 * filters, sorts and statistics aimed at the included records.
 */
for (const db of testDatabases('many_to_many_reads')) {
  let dir: Directory;
  test.before(async () => {
    dir = await openDirectory(db, 'many_to_many_reads');
  });
  test.after.always(async () => dir?.sequelize.close());

  /** The document from plain rows, and the same query rendered from models (loaded first through `data`). */
  async function bothPaths(params: QueryParams) {
    const { EmployeeResource } = dir.resources;
    dir.resetQueries();
    const plain = await EmployeeResource.all(params).toJsonapi();
    const plainQueries = [...dir.queries];
    const withModels = EmployeeResource.all(params);
    await withModels.data;
    return { plain, models: await withModels.toJsonapi(), plainQueries };
  }

  /** Each employee's teams straight from the join table, as linkage ids. */
  async function teamsOf(employeeIds: string[]) {
    const rows = await dir.models.EmployeeTeam.findAll({ where: { employee_id: employeeIds.map(Number) }, order: [['team_id', 'ASC']] });
    return new Map(employeeIds.map((id) => [id, rows.filter((r) => String(r.employee_id) === id).map((r) => String(r.team_id))]));
  }

  test.serial(`${db.name}: records linked to several parents come once, with every parent's linkage`, async (t) => {
    const { plain, models, plainQueries } = await bothPaths({ include: 'teams', sort: 'id', page: { size: 60 } });
    t.deepEqual(plain, models);
    t.is(plainQueries.length, 2, 'the employees, then their teams in one query');
    t.regex(plainQueries[1]!, /INNER JOIN/, 'one row per link, not a correlated aggregate');
    const expected = await teamsOf(data(plain).map((e) => e.id));
    for (const employee of data(plain)) t.deepEqual([...linked(employee, 'teams')].sort(), [...expected.get(employee.id)!].sort());
    const teamIds = plain.included!.map((i) => i.id);
    t.is(new Set(teamIds).size, teamIds.length, 'each team is included once');
    const shared = [...expected.values()].flat();
    t.true(shared.length > new Set(shared).size, 'the fixture links some team to more than one of these employees');
  });

  test.serial(`${db.name}: deep filters and sorts on the included records agree on both paths`, async (t) => {
    const { plain, models } = await bothPaths({ include: 'teams', sort: 'id,-teams.name', filter: { 'teams.name': { not_suffix: 'core' } }, page: { size: 60 } });
    t.deepEqual(plain, models);
    const teams = plain.included ?? [];
    t.true(teams.length > 0);
    t.true(teams.every((team) => !String(team.attributes.name).toLowerCase().endsWith('core')));
    const nameOf = new Map(teams.map((team) => [team.id, String(team.attributes.name)]));
    for (const employee of data(plain)) {
      const names = linked(employee, 'teams').map((id) => nameOf.get(id)!);
      t.deepEqual(names, [...names].sort().reverse(), 'each employee lists its teams by name, descending');
    }
  });

  test.serial(`${db.name}: statistics on the included type count distinct records on both paths`, async (t) => {
    const { plain, models } = await bothPaths({ include: 'teams', sort: 'id', page: { size: 60 }, stats: { teams: { total: 'count' } } });
    t.deepEqual(plain, models);
    const counted = (plain.meta.stats as { teams: { total: { count: number } } }).teams.total.count;
    t.is(counted, new Set(plain.included!.map((i) => i.id)).size);
  });

  test.serial(`${db.name}: a find hook on the related model sends reads through findAll, with the same document`, async (t) => {
    const { EmployeeResource } = dir.resources;
    const params: QueryParams = { include: 'teams', sort: 'id', page: { size: 60 } };
    const joined = await EmployeeResource.all(params).toJsonapi();
    const seen: number[] = [];
    dir.models.Team.addHook('afterFind', 'count', (found) => void seen.push(Array.isArray(found) ? found.length : 1));
    try {
      dir.resetQueries();
      const viaFindAll = await EmployeeResource.all(params).toJsonapi();
      t.deepEqual(viaFindAll, joined);
      t.is(seen.length, 1, 'the hook ran for the teams');
      t.notRegex(dir.queries[1]!, /INNER JOIN/, 'findAll links through a correlated subquery');
    } finally {
      dir.models.Team.removeHook('afterFind', 'count');
    }
  });
}
