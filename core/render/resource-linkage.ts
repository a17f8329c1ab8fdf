import type { LoadedRecord } from '../sideload/include-graph.ts';
import { quoted } from './json-text.ts';

/** A relationship's resource linkage (`data`): null, one resource identifier, or a list of them. */
export function linkage(related: LoadedRecord[] | LoadedRecord | null): unknown {
  if (related === null) return null;
  if (!Array.isArray(related)) return identify(related);
  const identifiers = new Array<unknown>(related.length);
  for (let i = 0; i < related.length; i++) identifiers[i] = identify(related[i]!);
  return identifiers;
}

// module-level rather than a closure per call: rendering calls it for every related record
function identify(loaded: LoadedRecord): { type: string; id: string } {
  return { type: loaded.resource.type, id: String((loaded.record as { id?: unknown }).id) };
}

/** `JSON.stringify(linkage(related))`. */
export function linkageText(related: LoadedRecord[] | LoadedRecord | null): string {
  if (related === null) return 'null';
  if (!Array.isArray(related)) return identifierText(related);
  let text = '[';
  for (let i = 0; i < related.length; i++) text += i === 0 ? identifierText(related[i]!) : `,${identifierText(related[i]!)}`;
  return `${text}]`;
}

function identifierText(loaded: LoadedRecord): string {
  return `{"type":${quoted(loaded.resource.type)},"id":${quoted(String((loaded.record as { id?: unknown }).id))}}`;
}
