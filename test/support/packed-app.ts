import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildPackages, type BuiltPackages } from '../../scripts/build.ts';
import { packPackages } from '../../scripts/pack.ts';

const run = promisify(execFile);

export const repo = resolve(import.meta.dirname, '../..');
const fixtures = join(repo, 'test/package/apps');

/** The version this repository installed, so a fresh app's install comes from npm's cache. */
export function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(repo, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A scratch directory outside the repository; removed by the caller. */
export function scratchDirectory(): string {
  return mkdtempSync(join(tmpdir(), 'mural-packed-'));
}

/** The tarballs of the runtime (`mural`) and the CLI (`mural-cli`). */
export type Tarballs = BuiltPackages;

/**
 * Builds both packages into a directory of this caller's own (never dist/,
 * which another test or a developer's `npm run build` may be rewriting) and
 * packs them into `directory`.
 */
export async function packTarballs(directory: string): Promise<Tarballs> {
  const build = mkdtempSync(join(repo, 'node_modules', '.cache', 'mural-build-'));
  try {
    return await packPackages(await buildPackages(build), directory);
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

/** What an app installs: the runtime always, the CLI as a dev dependency when its developers run `mural`. */
export interface AppInstall {
  tarballs: Tarballs;
  /** The runtime's peers and the app's own packages (`name@version`). */
  packages: string[];
  /** Installs mural-cli too, as a dev dependency. */
  cli: boolean;
  /** The app's directory name, when it is not the fixture's (two installs of one fixture). */
  as?: string;
}

/** `npm install` in an app, offline where npm's cache allows, running no install script. */
export async function npmInstall(app: string, args: string[]): Promise<void> {
  await run('npm', ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...args], { cwd: app, maxBuffer: 16 << 20 });
}

/**
 * Copies the fixture app `name` into `directory` and installs the tarballs
 * and packages into it, as a user would. sqlite3 compiles from source on
 * install (minutes); install scripts are skipped and the binary this
 * repository's own install compiled (same version, same Node) is copied in.
 */
export async function installApp(directory: string, name: string, install: AppInstall): Promise<string> {
  const app = join(directory, install.as ?? name);
  cpSync(join(fixtures, name), app, { recursive: true });
  await npmInstall(app, [install.tarballs.mural, ...install.packages]);
  if (install.cli) await npmInstall(app, ['--save-dev', install.tarballs['mural-cli']]);
  const release = join(app, 'node_modules/sqlite3/build/Release');
  mkdirSync(release, { recursive: true });
  cpSync(join(repo, 'node_modules/sqlite3/build/Release/node_sqlite3.node'), join(release, 'node_sqlite3.node'));
  return app;
}

export interface RunningServer {
  port: number;
  stop(): Promise<void>;
  output(): string;
}

/** Starts an app's server and waits for the line naming its port (`listening <port>` unless `ready` says otherwise). */
export function startServer(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, ready = /listening (\d+)/): Promise<RunningServer> {
  const child: ChildProcess = spawn(command, args, { cwd, env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => fail(new Error(`no line matching ${ready} within 60 s:\n${output}`)), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const port = ready.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolvePromise({ port: Number(port), output: () => output, stop: () => stop(child) });
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.on('exit', (code) => fail(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.on('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

/** Runs a command in an app; resolves with its exit code and output, never rejects on a non-zero exit. */
export async function runIn(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 16 << 20 });
    return { code: 0, out: stdout, err: stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, out: failed.stdout ?? '', err: failed.stderr ?? String(error) };
  }
}

export function removeDirectory(directory: string): void {
  rmSync(directory, { recursive: true, force: true });
}
