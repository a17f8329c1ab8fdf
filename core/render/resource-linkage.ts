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
  return `${identifierStart(loaded.resource)}${quoted(String((loaded.record as { id?: unknown }).id))}}`;
}

/** `{"type":"…","id":`, once per Resource rather than once per related record. */
const starts = new WeakMap<LoadedRecord['resource'], { readonly type: string; readonly text: string }>();

function identifierStart(resource: LoadedRecord['resource']): string {
  const start = starts.get(resource);
  // a Resource's type is configuration, but a test may set it again: the text follows it
  if (start !== undefined && start.type === resource.type) return start.text;
  const text = `{"type":${quoted(resource.type)},"id":`;
  starts.set(resource, { type: resource.type, text });
  return text;
}
