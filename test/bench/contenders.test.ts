import test from 'ava';
import { cursorPages } from '../../bench/cursor-pages.ts';
import { openFixture, removeFixtureFiles, type Fixture } from '../../bench/fixtures.ts';
import { relatedFilterContenders } from '../../bench/scenarios.ts';
import { ruleCostContenders } from '../../bench/rule-cost.ts';

/**
 * `npm run bench` compares Mural with hand-written baselines only after
 * checking that they find the same records; when Mural's output changes,
 * the baselines must follow or the bench stops. Nothing is timed here:
 * these are the bench's own checks, on a small SQLite fixture, so a drift
 * fails `npm test` (the read scenarios' byte-for-byte checks:
 * baseline-documents.test.ts).
 */
let fixture: Fixture;
test.before(async () => {
  fixture = await openFixture(60);
});
test.after.always(async () => {
  await fixture?.sequelize.close();
  removeFixtureFiles();
});

test.serial('the hand-written filter[has] subquery finds the records Mural finds', async (t) => {
  await t.notThrowsAsync(relatedFilterContenders(fixture));
});

test.serial('scenario 8 reaches the same last page by cursor as by offset', async (t) => {
  const pages = await cursorPages(120);
  t.is(pages.lastPage, 6);
  t.truthy(pages.timings.cursorLast);
});

test.serial('scenario 11: the ruled include request answers the same bytes, runs its rule in every statement, and leaves no rule behind', async (t) => {
  const { EmployeeResource, PositionResource } = fixture.resources;
  const before = EmployeeResource.config.rules.length;
  const contenders = await ruleCostContenders(fixture);
  const statements: string[] = [];
  const options = (fixture.sequelize as unknown as { options: { logging: unknown } }).options;
  options.logging = (sql: string) => void statements.push(sql);
  try {
    await contenders.ruled();
  } finally {
    options.logging = false;
  }
  t.true(statements.length >= 4 && statements.every((sql) => /\.[`"]?id[`"]?\s*>=\s*1/.test(sql)), statements.join('\n'));
  contenders.restore();
  t.is(EmployeeResource.config.rules.length, before);
  t.is(PositionResource.config.rules.length, before);
});
