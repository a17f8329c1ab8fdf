import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sequelize } from 'sequelize';
import type { TestDatabase } from './databases.ts';
import { PRODUCTION_SERVER_ENV, serverArguments } from '../../scripts/server-node-flags.ts';

export interface ChildServer {
  child: ChildProcess;
  baseUrl: string;
  port: number;
  /** Resolves when the process has ended, with its exit code (null when killed by a signal) and signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the process wrote so far, for failure messages. */
  output(): string;
}

const SERVER = new URL('../../examples/employee-directory/server.ts', import.meta.url).pathname;

/**
 * The example server as a real process, as `npm start` runs it (its Node flags, `--import tsx server.ts`), on
 * `databaseUrl`, on a free port, without demo data: for what only a process
 * shows, signals and crashes.
 */
export async function spawnDirectoryServer(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = spawn(process.execPath, serverArguments(SERVER), {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', SEED: '0', ...PRODUCTION_SERVER_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 60 s:\n${output}`)), 60_000);
    const look = () => {
      const match = /localhost:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening:\n${output}`));
    });
  });
  return { child, port, baseUrl: `http://127.0.0.1:${port}`, exited, output: () => output };
}

/** A Sequelize URL for a fresh SQLite file in a temporary folder. */
export function sqliteFileUrl(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), 'mural-')), 'directory.db')}`;
}

/** The URL of the database `sequelize` (opened by `openDatabase`) is connected to, for a child process. */
export function urlOf(db: TestDatabase, sequelize: Sequelize): string {
  if (db.name === 'sqlite') throw new Error('urlOf: use sqliteFileUrl() for SQLite');
  const url = new URL(db.url);
  url.pathname = `/${sequelize.getDatabaseName()}`;
  return url.toString();
}

/** Resolves when `until` has returned true, polling; rejects after `ms`. */
export async function eventually(until: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await until())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
