import test from 'ava';
import type { TestDatabase } from './databases.ts';
import { openDirectory, type Directory } from './directory.ts';
import { serve, type HttpClient } from './http.ts';

export interface DirectoryServer {
  dir: Directory;
  client: HttpClient;
}

/**
 * The example application on its own seeded database (`openDirectory`),
 * served over HTTP for the tests of one file: registers the `before` hook
 * that opens and serves it and the `after` hook that closes both.
 *
 * A suite declares its tests before any hook has run, so `dir` and `client`
 * stand in for the real ones and reach them once `before` is done; that keeps
 * the suites' `dir.models…` and `client.get(…)` as they read with local lets.
 */
export function directoryServer(db: TestDatabase, key: string, employees: number): DirectoryServer {
  let opened: Directory | undefined;
  let served: HttpClient | undefined;
  test.before(async () => {
    opened = await openDirectory(db, key, employees);
    served = await serve(opened.app);
  });
  test.after.always(async () => {
    await served?.close();
    await opened?.sequelize.close();
  });
  return { dir: directoryView(() => ready(opened)), client: clientView(() => ready(served)) };
}

function ready<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('directoryServer: used before its before hook ran (or after it failed)');
  return value;
}

function directoryView(real: () => Directory): Directory {
  return {
    get sequelize() { return real().sequelize; },
    get models() { return real().models; },
    get resources() { return real().resources; },
    get app() { return real().app; },
    get queries() { return real().queries; },
    resetQueries: () => real().resetQueries(),
  };
}

function clientView(real: () => HttpClient): HttpClient {
  return {
    get baseUrl() { return real().baseUrl; },
    get: (path, headers) => real().get(path, headers),
    request: (method, path, body, headers) => real().request(method, path, body, headers),
    close: () => real().close(),
  };
}
