import { createApp } from '../examples/employee-directory/app.ts';
import { connect } from '../examples/employee-directory/db/connection.ts';
import { RawDriver } from './baselines/raw-driver.ts';
import { startDelayProxy } from './delay-proxy.ts';
import type { Fixture } from './fixtures.ts';
import { contenders } from './scenarios.ts';

/** Milliseconds each packet is held in each direction (MURAL_BENCH_HOP_MS): a database a network hop away. */
export const HOP_MS = Number(process.env.MURAL_BENCH_HOP_MS ?? 1);

/**
 * The three implementations of the include page on `fixture`'s PostgreSQL
 * database, reached through a proxy that delays every packet HOP_MS each
 * way: where a round trip costs more than the statement, what counts is
 * how many of them a request waits on one after another.
 */
export async function networkHopContenders(fixture: Fixture) {
  const proxy = await startDelayProxy(fixture.target, HOP_MS);
  const sequelize = connect(proxy.url);
  const raw = new RawDriver(proxy.url);
  const far: Fixture = { ...fixture, ...createApp(sequelize), sequelize, target: proxy.url };
  return {
    contenders: await contenders(far, raw, 20, true),
    async close() {
      await sequelize.close();
      await raw.close();
      await proxy.close();
    },
  };
}
