import { extname, resolve } from 'node:path';
import { buildSchema, renderMermaid, renderSvg, resourceGraph } from '../core/index.ts';
import { CommandError, type CommandDefinition } from './host/command.ts';
import { writeOutput } from './host/write-output.ts';

const FORMATS = ['svg', 'mermaid'] as const;
type Format = (typeof FORMATS)[number];
const MERMAID_EXTENSIONS = new Set(['.mmd', '.mermaid']);

export const diagram: CommandDefinition = {
  name: 'diagram',
  description: 'Draw the relationships of every Resource: an SVG image, or Mermaid text; guarded relationships are marked',
  options: [
    { flags: '--format <format>', description: 'svg or mermaid (default: mermaid for an --out ending in .mmd or .mermaid, else svg)' },
    { flags: '--out <file>', description: 'write to this file instead of standard output' },
  ],
  examples: ['mural diagram --out diagram.svg', 'mural diagram --format mermaid', 'mural diagram --out resources.mmd'],
  async run(context, _args, options) {
    const out = typeof options.out === 'string' ? options.out : undefined;
    const format = formatOf(options.format, out);
    const graph = resourceGraph(buildSchema(await context.resources()));
    const text = format === 'svg' ? renderSvg(graph) : renderMermaid(graph);
    writeOutput(context, out === undefined ? undefined : resolve(context.root, out), text);
    return 0;
  },
};

function formatOf(given: unknown, out: string | undefined): Format {
  if (given === undefined) return out !== undefined && MERMAID_EXTENSIONS.has(extname(out).toLowerCase()) ? 'mermaid' : 'svg';
  if (typeof given === 'string' && (FORMATS as readonly string[]).includes(given)) return given as Format;
  throw new CommandError(`Unknown format "${String(given)}"; formats: ${FORMATS.join(', ')}`, 2);
}
