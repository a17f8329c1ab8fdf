import { spawnSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { installApp, installedVersion, packTarballs, removeDirectory, repo, scratchDirectory } from '../test/support/packed-app.ts';
import { median } from './measure.ts';

export interface StartupTiming {
  command: string;
  /** Median wall-clock milliseconds of the CLI this checkout used to ship: its TypeScript sources run through tsx. */
  sources: number;
  /** The same, for the compiled CLI installed from the packed tarball. */
  compiled: number;
}

/**
 * `mural --help` and `mural query` as separate processes, from the packed
 * tarball installed in a fresh app against the CLI as it ran before it was
 * compiled (this checkout's bin, which still runs the sources through tsx).
 * Both query the example application's config and the same SQLite file.
 */
export async function measureCliStartup(rounds = 9): Promise<StartupTiming[]> {
  const scratch = scratchDirectory();
  try {
    const tarballs = await packTarballs(scratch);
    const runtime = ['express', 'sequelize', 'sqlite3', 'tsx'].map((name) => `${name}@${installedVersion(name)}`);
    const app = await installApp(scratch, 'esm', { tarballs, packages: runtime, cli: true });
    cpSync(join(repo, 'examples/employee-directory'), join(app, 'employee-directory'), { recursive: true });
    const env = { ...process.env, DATABASE_URL: `sqlite:${join(scratch, 'directory.db')}`, NO_COLOR: '1' };
    const installed = join(app, 'node_modules/mural-cli/bin/mural.js');
    const source = join(repo, 'bin/mural.js');
    const query = (config: string) => ['query', 'employees', '--config', config, '--filter', 'age[gte]=60', '--per', '5', '--format', 'json'];
    const commands: Array<[string, string[], string[]]> = [
      ['mural --help', ['--help'], ['--help']],
      ['mural query employees', query(join(repo, 'examples/employee-directory/mural.config.ts')), query(join(app, 'employee-directory/mural.config.ts'))],
    ];
    // the first query creates and seeds the database; neither contender pays for that while timed
    time(source, commands[1]![1], repo, env);
    return commands.map(([command, sourceArgs, compiledArgs]) => {
      const samples = { sources: [] as number[], compiled: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        samples.sources.push(time(source, sourceArgs, repo, env));
        samples.compiled.push(time(installed, compiledArgs, app, env));
      }
      return { command, sources: median(samples.sources), compiled: median(samples.compiled) };
    });
  } finally {
    removeDirectory(scratch);
  }
}

function time(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8' });
  const elapsed = performance.now() - start;
  if (result.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}
