import { createApp } from '../examples/employee-directory/app.ts';
import { connect } from '../examples/employee-directory/db/connection.ts';
import { startDelayProxy } from './delay-proxy.ts';
import type { Fixture } from './fixtures.ts';
import { alternate, medianRatio, type Timing } from './measure.ts';
import { checkSameTexts, inProcessContenders, openDriverBaselines } from './read-contenders.ts';
import { ms, type Report } from './report.ts';
import { INCLUDE_REQUEST } from './scenarios.ts';

/** Milliseconds each packet is held in each direction (MURAL_BENCH_HOP_MS): a database a network hop away. */
export const HOP_MS = Number(process.env.MURAL_BENCH_HOP_MS ?? 1);
/** Rounds of the network-hop scenario: the proxy's timers make each request's time vary more than on loopback. */
const HOP_ROUNDS = 21;

/**
 * Mural, (a) and (b) building the include page in-process on `fixture`'s
 * PostgreSQL database, reached through a proxy that delays every packet
 * HOP_MS each way: where a round trip costs more than the statement, what
 * counts is how many of them a request waits on one after another.
 */
export async function networkHopContenders(fixture: Fixture) {
  const proxy = await startDelayProxy(fixture.target, HOP_MS);
  const sequelize = connect(proxy.url);
  const baselines = await openDriverBaselines(proxy.url);
  const far: Fixture = { ...fixture, ...createApp(sequelize), sequelize, target: proxy.url };
  const contenders = inProcessContenders(far, baselines, INCLUDE_REQUEST);
  await checkSameTexts(contenders, `${INCLUDE_REQUEST.path} through the delaying proxy`);
  return {
    contenders,
    async close() {
      try {
        await sequelize.close();
        await baselines.close();
      } finally {
        await proxy.close();
      }
    },
  };
}

/** Scenario 2's include request again, the database one network hop away. */
export async function networkHopScenario(report: Report, fixture: Fixture): Promise<void> {
  const hop = await networkHopContenders(fixture);
  try {
    const { mural, sequelize, driver } = (await alternate(hop.contenders, HOP_ROUNDS, 8)) as Record<'mural' | 'sequelize' | 'driver', Timing>;
    report.say(`   include, page[size]=20, through a proxy holding each packet ${HOP_MS} ms each way (the database a network hop away): Mural ${ms(mural.median)}, (a) ${ms(sequelize.median)}, (b) ${ms(driver.median)} (medians of ${HOP_ROUNDS} rounds)`);
    // the proxy standing for the network is a process sharing these 2 cores: more statements at once cost it CPU a real network would not
    const ratio = (baseline: Timing) => medianRatio(baseline.rounds, mural.rounds).toFixed(2);
    report.say(`   throughput Mural/(a) ${ratio(sequelize)}; Mural/(b) ${ratio(driver)} (no target: the proxy shares these 2 cores with PostgreSQL and the bench)`);
  } finally {
    await hop.close();
  }
}
