import test from 'ava';
import { RawDriver } from '../../bench/baselines/raw-driver.ts';
import { cursorPages } from '../../bench/cursor-pages.ts';
import { openFixture, removeFixtureFiles, type Fixture } from '../../bench/fixtures.ts';
import { contenders, relatedFilterContenders } from '../../bench/scenarios.ts';

/**
 * `npm run bench` compares Mural with hand-written baselines only after
 * checking that they build the same document; when Mural's output changes
 * (new links, new members), the baselines must follow or the bench stops at
 * its first scenario. Nothing is timed here: these are the bench's own
 * checks, on a small SQLite fixture, so a drift fails `npm test`.
 */
let fixture: Fixture;
let raw: RawDriver;
test.before(async () => {
  fixture = await openFixture(60);
  raw = new RawDriver(fixture.target);
});
test.after.always(async () => {
  await raw?.close();
  await fixture?.sequelize.close();
  removeFixtureFiles();
});

test.serial('the Sequelize and raw-driver baselines build the documents Mural builds, with and without includes', async (t) => {
  await t.notThrowsAsync(contenders(fixture, raw, 20, true));
  await t.notThrowsAsync(contenders(fixture, raw, 100, false));
});

test.serial('the hand-written filter[has] subquery finds the records Mural finds', async (t) => {
  await t.notThrowsAsync(relatedFilterContenders(fixture));
});

test.serial('scenario 8 reaches the same last page by cursor as by offset', async (t) => {
  const pages = await cursorPages(120);
  t.is(pages.lastPage, 6);
  t.truthy(pages.timings.cursorLast);
});
