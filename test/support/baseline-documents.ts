import test from 'ava';
import type { Fixture } from '../../bench/fixtures.ts';
import { checkSameBodies, inProcessContenders, muralHttpBody, openDriverBaselines, startReadServers, type DriverBaselines, type ReadServers } from '../../bench/read-contenders.ts';
import { READ_REQUESTS } from '../../bench/scenarios.ts';

/**
 * The bench's read baselines send exactly Mural's bytes: for each request
 * of scenarios 1 and 2, every contender's HTTP body and in-process text is
 * compared with Mural's HTTP body, byte for byte (checkSameBodies throws at
 * the first differing byte, with the text around it). A change to Mural's
 * documents (a member, its order, a date's or a boolean's form, a link)
 * fails here until the hand-written baselines follow.
 *
 * `open` gives the example app seeded with 60 employees: the include page
 * (20 a page) has next and last links, active and inactive positions and
 * positions without a department; page 100, every employee, has a last
 * link only and employees without an age.
 */
export function baselineDocumentTests(database: string, open: () => Promise<Fixture>): void {
  let fixture: Fixture;
  let baselines: DriverBaselines;
  let servers: ReadServers;
  test.before(async () => {
    fixture = await open();
    baselines = await openDriverBaselines(fixture.target);
    servers = await startReadServers(fixture, baselines);
  });
  test.after.always(async () => {
    await servers?.close();
    await baselines?.close();
    await fixture?.sequelize.close();
  });

  for (const request of READ_REQUESTS) {
    test.serial(`${database}: every baseline's HTTP body and in-process text for ${request.path} is Mural's HTTP body, byte for byte`, async (t) => {
      const expected = await muralHttpBody(servers, request);
      const members = request.include
        ? ['"active":true', '"active":false', '"department":{"data":null', '"type":"teams"', '"next":"/api/v1/employees?']
        : ['"age":null', '"meta":{}'];
      for (const member of [...members, '"first":"/api/v1/employees?', '"last":"/api/v1/employees?', '"jsonapi":{"version":"1.1"}']) {
        t.true(expected.includes(member), `Mural's body has ${member}: the comparison covers it`);
      }
      const names = Object.keys(servers.baseUrls);
      t.deepEqual(names.filter((name) => name !== 'mural'), database === 'SQLite' ? ['sequelize', 'driver', 'framed', 'better'] : ['sequelize', 'driver', 'framed']);
      await t.notThrowsAsync(checkSameBodies(servers, inProcessContenders(fixture, baselines, request), request));
    });
  }
}
