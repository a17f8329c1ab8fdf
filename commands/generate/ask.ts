import { ALL_ACTIONS } from '../../core/index.ts';
import { importAtRunTime } from '../host/import-at-run-time.ts';
import { attributesProblem, nameProblem } from './generate-request.ts';

export interface Answers {
  name: string;
  specs: string[];
  actions: string[];
}

const words = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * Asks for whatever the command line left out, when a person is at the
 * terminal. Each answer is checked as it is given: a typo is shown under the
 * answer, which stays there to be corrected, rather than failing the command
 * after the last question.
 */
export async function askMissing(given: { name?: string; specs: string[]; actions?: string[] }): Promise<Answers> {
  const { input, checkbox } = await importAtRunTime<typeof import('@inquirer/prompts')>('@inquirer/prompts');
  const name = given.name ?? (await input({
    message: 'Resource name (e.g. Employee):',
    validate: (value) => nameProblem(value.trim()) ?? true,
  })).trim();
  const specs = given.specs.length > 0 ? given.specs : words(await input({
    message: 'Attributes as name:type, space separated (e.g. first_name:string age:integer):',
    validate: (value) => attributesProblem(words(value)) ?? true,
  }));
  const actions = given.actions ?? (await checkbox({
    message: 'Actions:',
    choices: ALL_ACTIONS.map((action) => ({ value: action as string, checked: true })),
    validate: (chosen) => chosen.length > 0 || 'Choose at least one action',
  }));
  return { name, specs, actions };
}
