import { importAtRunTime } from '../host/import-at-run-time.ts';

/** The questions `mural init` may ask; @inquirer/prompts in a terminal. */
export interface Prompter {
  select(message: string, choices: string[]): Promise<string>;
  checkbox(message: string, choices: string[]): Promise<string[]>;
  input(message: string, options: { default?: string; validate?: (value: string) => true | string }): Promise<string>;
  confirm(message: string): Promise<boolean>;
}

/** @inquirer/prompts is ESM-only: loaded when a person is there to answer. */
export async function terminalPrompter(): Promise<Prompter> {
  const prompts = await importAtRunTime<typeof import('@inquirer/prompts')>('@inquirer/prompts');
  return {
    select: (message, choices) => prompts.select({ message, choices: choices.map((value) => ({ value })) }),
    checkbox: (message, choices) => prompts.checkbox({ message, choices: choices.map((value) => ({ value, checked: true })) }),
    input: (message, options) => prompts.input({ message, ...options }),
    confirm: (message) => prompts.confirm({ message, default: true }),
  };
}
