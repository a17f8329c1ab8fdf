import { openFixture, removeFixtureFiles } from './fixtures.ts';
import { muralPage, HAS_QUERY } from './scenarios.ts';
const fixture = await openFixture(1000);
fixture.queries.length = 0;
await muralPage(fixture, HAS_QUERY)();
console.log(fixture.queries.join('\n'));
for (const sql of fixture.queries) {
  const q = sql.replace(/^Executing \(default\): /, '');
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) await fixture.sequelize.query(q);
  console.log(((performance.now() - t0) / 20).toFixed(2), 'ms');
  console.log(JSON.stringify(await fixture.sequelize.query('EXPLAIN QUERY PLAN ' + q)));
}
await fixture.sequelize.close();
removeFixtureFiles();
