import { createServer } from 'node:http';
import { BetterSqliteBaseline } from './baselines/better-sqlite-server.ts';
import { listen, serveEmployeePages, serveEmployeePagesWithExpress, type EmployeePageText } from './baselines/http-server.ts';
import { PgBaseline } from './baselines/pg-server.ts';
import { sequelizeApp, sequelizeEmployeeText } from './baselines/sequelize-handler.ts';
import { SqliteBaseline } from './baselines/sqlite-server.ts';
import type { Fixture } from './fixtures.ts';
import { assertSameBytes } from './same-bytes.ts';
import { muralDocumentText, muralProxy, type ReadRequest } from './scenarios.ts';

/**
 * The contenders of the read scenarios (1 and 2): Mural; (a) Sequelize by
 * hand; (b) the driver Mural uses (node-sqlite3, pg) by hand, with the
 * string writer; (c) better-sqlite3 by hand, SQLite only; (d) (b)'s handler
 * as a route of an Express app, over HTTP only. Names as the bench reports
 * them.
 */
export const CONTENDER_LABELS: Record<string, string> = {
  mural: 'Mural',
  sequelize: '(a) Sequelize by hand',
  driver: '(b) driver by hand',
  better: '(c) better-sqlite3 by hand',
  framed: '(d) (b) served by Express',
};

/** The hand-written driver baselines of one fixture, (c) on SQLite only. */
export interface DriverBaselines {
  driver: EmployeePageText;
  better?: EmployeePageText;
  close(): Promise<void>;
}

/** (b), and on SQLite (c), on `target`: a SQLite file or a PostgreSQL URL (fixture.target, or a proxy to it). */
export async function openDriverBaselines(target: string): Promise<DriverBaselines> {
  if (target.startsWith('postgres')) {
    const pg = new PgBaseline(target);
    return { driver: pg.text, close: () => pg.close() };
  }
  const sqlite = await SqliteBaseline.open(target);
  const better = new BetterSqliteBaseline(target);
  return { driver: sqlite.text, better: better.text, close: async () => void (await Promise.all([sqlite.close(), better.close()])) };
}

/** Each contender's in-process form for `request`: the body it would send, as text. */
export function inProcessContenders(fixture: Fixture, baselines: DriverBaselines, request: ReadRequest): Record<string, () => Promise<string>> {
  const proxy = muralProxy(fixture, request.query);
  const { size, include } = request;
  const contenders: Record<string, () => Promise<string>> = {
    mural: () => muralDocumentText(proxy()),
    sequelize: () => sequelizeEmployeeText(fixture, size, include),
    driver: () => baselines.driver(size, include),
  };
  const better = baselines.better;
  if (better) contenders.better = () => better(size, include);
  return contenders;
}

export interface ReadServers {
  /** Each contender's `http://127.0.0.1:<port>`. */
  baseUrls: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Every contender's HTTP server, each on a port of its own, in this
 * process: Mural's is the example app itself (Express). The load generator
 * is a process of its own (http-load.ts), and an idle server costs
 * nothing. What this process's heap could cost a baseline in GC, measured:
 * (b) on SQLite served from here, after Mural had run in-process, against
 * the same server in a child process of its own, 7 alternated rounds by
 * wrk, came out 0.94–1.05× at 1 and 16 connections for both requests, no
 * way consistently faster: within the noise of a round.
 */
export async function startReadServers(fixture: Fixture, baselines: DriverBaselines): Promise<ReadServers> {
  const servers = {
    mural: await listen(createServer(fixture.app)),
    sequelize: await listen(createServer(sequelizeApp(fixture))),
    driver: await listen(serveEmployeePages(baselines.driver)),
    framed: await listen(serveEmployeePagesWithExpress(baselines.driver)),
    ...(baselines.better && { better: await listen(serveEmployeePages(baselines.better)) }),
  };
  return {
    baseUrls: Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, server.baseUrl])),
    close: async () => void (await Promise.all(Object.values(servers).map((server) => server.close()))),
  };
}

/** Mural's HTTP body for `request`, the reference every contender must match. */
export async function muralHttpBody(servers: ReadServers, request: ReadRequest): Promise<string> {
  return fetchBody(`${servers.baseUrls.mural}${request.path}`);
}

async function fetchBody(url: string): Promise<string> {
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}: ${response.status} ${body.slice(0, 300)}`);
  if (!response.headers.get('content-type')?.startsWith('application/vnd.api+json')) throw new Error(`GET ${url}: Content-Type ${response.headers.get('content-type')}`);
  return body;
}

/**
 * Throws, naming the first differing byte, unless every contender's HTTP
 * body and in-process text for `request` are Mural's HTTP body byte for byte.
 */
export async function checkSameBodies(servers: ReadServers, contenders: Record<string, () => Promise<string>>, request: ReadRequest): Promise<string> {
  const expected = await muralHttpBody(servers, request);
  for (const [name, url] of Object.entries(servers.baseUrls)) {
    assertSameBytes(expected, await fetchBody(`${url}${request.path}`), `${CONTENDER_LABELS[name]}'s HTTP body for ${request.path}`);
  }
  for (const [name, text] of Object.entries(contenders)) {
    assertSameBytes(expected, await text(), `${CONTENDER_LABELS[name]}'s in-process text for ${request.path}`);
  }
  return expected;
}

/** Throws unless every contender's in-process text is Mural's (where no HTTP server runs: the network-hop scenario). */
export async function checkSameTexts(contenders: Record<string, () => Promise<string>>, what: string): Promise<void> {
  const expected = await contenders.mural!();
  for (const [name, text] of Object.entries(contenders)) assertSameBytes(expected, await text(), `${CONTENDER_LABELS[name]}'s in-process text for ${what}`);
}
