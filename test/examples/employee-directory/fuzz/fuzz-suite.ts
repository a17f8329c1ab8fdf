import test from 'ava';
import type fc from 'fast-check';
import { testDatabases } from '../../../support/databases.ts';
import { openDirectory, type Directory } from '../../../support/directory.ts';
import { startFuzzServer, type FuzzRequest, type FuzzResponse, type FuzzServer } from './fuzz-server.ts';
import { knownBug } from './known-bugs.ts';
import { chunks, fuzz, fuzzSettings, heapAfterCollection } from './property.ts';
import { vocabularyOf, type Vocabulary } from './vocabulary.ts';

/** How much the heap may grow over a whole fuzz file: generous, but far below what a leak per request gives. */
const HEAP_GROWTH_BOUND = 96 * 1024 * 1024;

export interface FuzzFamily {
  /** Names the tests and isolates the databases. */
  key: string;
  /** Offsets the seed, so families never replay each other's choices. */
  seedOffset: number;
  /** This family's share of MURAL_FUZZ_RUNS. */
  share: number;
  requests(vocabulary: Vocabulary): fc.Arbitrary<FuzzRequest>;
  /**
   * The request as sent, made anew on every send: what must differ between
   * two sends (a name the invariant counts) even when shrinking sends one
   * generated request several times at once.
   */
  prepare?(request: FuzzRequest): FuzzRequest;
  /**
   * What else must hold once a request is answered: the broken rule, or
   * undefined. `send` asks the server again (once its batch is answered).
   */
  invariant?(dir: Directory, request: FuzzRequest, response: FuzzResponse, send: (request: FuzzRequest) => Promise<FuzzResponse>): Promise<string | undefined>;
}

/**
 * Registers a family's fuzz tests on every test database: its share of the
 * requests in chunks of serial tests (each with its own seed, named in the
 * title), then the memory check over the whole file.
 */
export function fuzzSuite(family: FuzzFamily): void {
  const { seed, requests } = fuzzSettings();
  const total = Math.round(requests * family.share);
  let heapAtStart = 0;
  test.before(() => {
    heapAtStart = heapAfterCollection();
  });
  for (const db of testDatabases(`fuzz_${family.key}`)) {
    let dir: Directory;
    let server: FuzzServer;
    let vocabulary: Vocabulary;
    test.before(async () => {
      dir = await openDirectory(db, `fuzz_${family.key}`, 40);
      server = await startFuzzServer(dir.app);
      vocabulary = vocabularyOf(Object.values(dir.resources));
    });
    test.after.always(async () => {
      await server?.close();
      await dir?.sequelize.close();
    });
    let first = 0;
    chunks(total).forEach((size, i) => {
      const chunkSeed = seed + family.seedOffset + i;
      const range = `${first + 1}–${first + size}`;
      first += size;
      test.serial(`${db.name}: fuzz ${family.key}, requests ${range} of ${total} (seed ${chunkSeed})`, async (t) => {
        const requests = family.requests(vocabulary).filter((r) => knownBug(r, db.name) === undefined);
        const invariant = family.invariant && ((request: FuzzRequest, response: FuzzResponse) => family.invariant!(dir, request, response, (r) => server.send(r)));
        const statuses = await fuzz(server, requests, size, chunkSeed, invariant, family.prepare);
        t.log(`statuses: ${[...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
        t.pass();
      });
    });
  }
  test.serial(`${family.key}: the heap stays bounded over every request`, (t) => {
    const growth = heapAfterCollection() - heapAtStart;
    t.log(`heap growth ${(growth / 1024 / 1024).toFixed(1)} MB over ${total} requests per database`);
    t.true(growth < HEAP_GROWTH_BOUND, `heap grew by ${(growth / 1024 / 1024).toFixed(1)} MB`);
  });
}
