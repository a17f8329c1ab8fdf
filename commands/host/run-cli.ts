import type { ChalkInstance } from 'chalk';
import { Command, CommanderError } from 'commander';
import { checkResources, MuralError, prepareResources, ResourceCheckFailed, Types, type AdapterClass, type Resource } from '../../core/index.ts';
import { CLI_VERSION } from './cli-version.ts';
import { CommandError, type CommandContext, type CommandDefinition, type CommandIO } from './command.ts';
import { loadConfig } from './load-config.ts';
import type { MuralPlugin, PluginHost } from './plugin.ts';
import type { ProjectConfig } from './project-config.ts';
import type { Template } from './template.ts';
import { importAtRunTime } from './import-at-run-time.ts';

/**
 * What `runCli` needs besides the arguments: the folder, the terminal, and the plugins and
 * commands every project has.
 */
export interface CliOptions {
  cwd?: string;
  io?: CommandIO;
  /** Plugins used when the config names none. */
  defaultPlugins: MuralPlugin[];
  /** Commands every project has (schema, guards, query, generate). */
  coreCommands: CommandDefinition[];
  /** Generator templates every project has; plugins may replace them. */
  coreTemplates: Record<string, Template>;
}

const processIO: CommandIO = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY),
};

/** Registered adapters by name, each loaded on first use. */
const adapters = new Map<string, () => Promise<AdapterClass>>();

/** The adapter a plugin registered under `name` (`sequelize` by default), loaded if it was not yet; undefined if none was. */
export function registeredAdapter(name: string): Promise<AdapterClass | undefined> {
  return adapters.get(name)?.() ?? Promise.resolve(undefined);
}

/**
 * Runs `mural` with `argv`: loads the config and its plugins, builds the
 * commands, runs one. Resolves to the exit code: 0 success, 1 a failure the
 * command reports, 2 a usage or configuration error.
 */
export async function runCli(argv: string[], options: CliOptions): Promise<number> {
  const io = options.io ?? processIO;
  // chalk is an ES module only: Node 20.17 and 20.18 cannot require() it
  const { Chalk } = await importAtRunTime<typeof import('chalk')>('chalk');
  const color = new Chalk({ level: io.interactive && !process.env.NO_COLOR ? 1 : 0 });
  // help and the version need no config: a missing one is not an error then
  const wantsHelp = argv.length === 0 || argv.some((a) => a === '--help' || a === '-h' || a === 'help' || a === '--version' || a === '-V');
  let config: ProjectConfig | undefined;
  let resourcesLoaded = false;
  try {
    const standalone = invokedCommand(argv, options.coreCommands)?.withoutConfig === true;
    const loaded = standalone
      ? undefined
      : await loadConfig(options.cwd ?? process.cwd(), configFlag(argv)).catch((error: unknown) => {
          if (wantsHelp) return undefined;
          throw error;
        });
    config = loaded?.config;
    const root = loaded?.root ?? options.cwd ?? process.cwd();
    const { commands, templates } = await setupPlugins(config?.plugins ?? options.defaultPlugins, options);
    let loadedResources: Promise<ReadonlyArray<typeof Resource>> | undefined;
    const context: CommandContext = {
      config: config ?? { resources: [] },
      root,
      templates,
      io,
      color,
      resources: () => {
        resourcesLoaded = true;
        return (loadedResources ??= loadResources(config, root));
      },
    };
    return await runProgram(argv, commands, context);
  } catch (error) {
    return report(error, io, color);
  } finally {
    // only what a command opened needs closing
    if (resourcesLoaded) await config?.close?.();
  }
}

async function setupPlugins(plugins: MuralPlugin[], options: CliOptions) {
  const commands: CommandDefinition[] = [...options.coreCommands];
  const templates = new Map<string, Template>(Object.entries(options.coreTemplates));
  const host: PluginHost = {
    command: (definition) => void commands.push(definition),
    template: (name, template) => void templates.set(name, template),
    type: (name, definition) => void (Types[name] = definition),
    adapter: (name, adapter) => {
      let loaded: Promise<AdapterClass> | undefined;
      adapters.set(name, typeof adapter === 'function' ? () => Promise.resolve(adapter) : () => (loaded ??= adapter.load()));
    },
  };
  for (const plugin of plugins) await plugin.setup(host);
  return { commands, templates };
}

async function loadResources(config: ProjectConfig | undefined, root: string): Promise<ReadonlyArray<typeof Resource>> {
  if (!config) throw new CommandError('No config loaded', 2);
  let resources: ReadonlyArray<typeof Resource>;
  try {
    resources = typeof config.resources === 'function' ? await config.resources() : config.resources;
  } catch (error) {
    throw new CommandError(`Could not load the Resources: ${(error as Error).message}`, 2);
  }
  if (config.checkResources !== false) checked(resources, root);
  return resources;
}

/** The check `muralRouter` makes, so that a command never describes or queries Resources the server would refuse; locations relative to the config. */
function checked(resources: ReadonlyArray<typeof Resource>, root: string): void {
  prepareResources();
  try {
    checkResources(resources, { root });
  } catch (error) {
    if (error instanceof ResourceCheckFailed) throw new CommandError(error.message, 2);
    throw error;
  }
}

async function runProgram(argv: string[], definitions: CommandDefinition[], context: CommandContext): Promise<number> {
  const program = new Command('mural')
    .description('Scaffold, check and query Mural Resources.')
    .option('--config <path>', 'the config file (default: mural.config.{ts,js,mjs} here)')
    .version(CLI_VERSION, '-V, --version', 'print the version of Mural\'s CLI')
    .exitOverride()
    .configureOutput({ writeOut: (s) => context.io.out(s), writeErr: (s) => context.io.err(s) });
  let exitCode = 0;
  for (const definition of definitions) {
    const command = attach(program, definition);
    command.action(async (...received: unknown[]) => {
      const commandObject = received[received.length - 1] as Command;
      const args = received.slice(0, definition.arguments?.length ?? 0).flat() as string[];
      exitCode = (await definition.run(context, args, commandObject.opts())) ?? 0;
    });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return exitCode;
}

function attach(program: Command, definition: CommandDefinition): Command {
  const [group, name] = definition.name.includes(' ') ? definition.name.split(' ', 2) : [undefined, definition.name];
  let parent = program;
  if (group) {
    parent = program.commands.find((c) => c.name() === group) ?? program.command(group).description(`${group} commands`);
    parent.exitOverride();
  }
  const command = parent.command(name!).description(definition.description).exitOverride();
  for (const argument of definition.arguments ?? []) command.argument(argument);
  for (const option of definition.options ?? []) {
    if (option.repeatable) command.option(option.flags, option.description, (v: string, all: string[] = []) => [...all, v]);
    else command.option(option.flags, option.description, option.defaultValue as string | boolean | string[] | undefined);
  }
  const { helpText } = definition;
  if (helpText) command.addHelpText('after', () => `\n${helpText()}`);
  if (definition.examples?.length) command.addHelpText('after', `\nExamples:\n${definition.examples.map((e) => `  $ ${e}`).join('\n')}`);
  return command;
}

function report(error: unknown, io: CommandIO, color: ChalkInstance): number {
  if (error instanceof CommandError) {
    io.err(color.red(error.message));
    return error.exitCode;
  }
  if (error instanceof MuralError) {
    const parameter = error.parameter ? ` (${error.parameter})` : '';
    io.err(color.red(`${error.message}${parameter}`));
    return 1;
  }
  io.err(color.red(error instanceof Error ? error.message : String(error)));
  return 1;
}

/** The command `argv` names, from its words before any option other than `--config`. */
function invokedCommand(argv: string[], definitions: CommandDefinition[]): CommandDefinition | undefined {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--config') i++;
    else if (argv[i]!.startsWith('--config=')) continue;
    else if (argv[i]!.startsWith('-')) break;
    else words.push(argv[i]!);
  }
  return definitions.find((d) => d.name.split(' ').every((word, i) => words[i] === word));
}

function configFlag(argv: string[]): string | undefined {
  const index = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  if (index === -1) return undefined;
  return argv[index]!.includes('=') ? argv[index]!.split('=')[1] : argv[index + 1];
}
