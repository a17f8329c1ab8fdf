import type { Resource } from '../../core/index.ts';
import type { ProjectConfig } from './project-config.ts';
import type { Template } from './template.ts';

/** One option of a command a plugin registers, in Commander's flag syntax. */
export interface CommandOption {
  /** Commander flag syntax: `--out <file>`, `-a, --actions <actions...>`. */
  flags: string;
  description: string;
  defaultValue?: string | boolean | string[];
  /** Repeatable: each use adds a value. */
  repeatable?: boolean;
}

/**
 * Where a command writes: standard output and error (a test captures them), and whether a person
 * is at the terminal.
 */
export interface CommandIO {
  out(text: string): void;
  err(text: string): void;
  /** Whether a person is at the terminal (prompts, colour). */
  interactive: boolean;
}

/**
 * The terminal colours a command may use: plain text when the output is not
 * a terminal or NO_COLOR is set. (Chalk's instance at run time, typed here so
 * the CLI's public types do not depend on chalk, an ES-module-only package.)
 */
export interface CommandColor {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

/** What a running command can reach. */
export interface CommandContext {
  config: ProjectConfig;
  /** Directory of the config file; relative paths resolve from it. */
  root: string;
  resources(): Promise<ReadonlyArray<typeof Resource>>;
  templates: ReadonlyMap<string, Template>;
  io: CommandIO;
  color: CommandColor;
}

/** A CLI command, as core and plugins declare them. */
export interface CommandDefinition {
  /** `query`, or `schema export` for a subcommand. */
  name: string;
  description: string;
  /** Commander argument syntax, e.g. `<resource>` or `[attributes...]`. */
  arguments?: string[];
  options?: CommandOption[];
  examples?: string[];
  /** More help, after the options: computed when help is shown, so it can list what plugins registered (types). */
  helpText?: () => string;
  /** Runs without loading the project's config (`init` writes it); only core commands can. */
  withoutConfig?: boolean;
  /** Resolves to the exit code (0 when omitted). */
  run(context: CommandContext, args: string[], options: Record<string, unknown>): Promise<number | void>;
}

/** A failure the user can fix, printed as one red line. */
export class CommandError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = 'CommandError';
  }
}
