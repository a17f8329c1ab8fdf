import type { JoinTable } from '../adapter/adapter.ts';
import { versionAttributeOf, versionOf } from '../conditional/version.ts';
import { versionedLinksOf, type VersionedLink } from '../relationships/versioned-links.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import type { WriteNode } from './write-node.ts';

type ResourceClass = typeof ResourceBase;

/** What a record's versioned links point at, read before a write changes it. */
export type LinkValues = ReadonlyArray<{ readonly key: unknown; readonly type: unknown }>;

interface Pending {
  readonly target: ResourceClass;
  readonly column: string;
  readonly keys: Map<string, unknown>;
}

/**
 * The records whose documents a write changes without saving them: the
 * other side of every link it adds or removes (a join row, a foreign key
 * set, changed or cleared, a record created or destroyed). They get a new
 * version at the end of the write, in its transaction, so an ETag taken
 * before the change no longer matches whichever side the change came from.
 * A record the write saved with a new version of its own is left alone.
 */
export class LinkedVersions {
  private readonly pending = new Map<string, Pending>();
  private readonly versioned = new Set<string>();

  /** The record's link values now, to compare after its save; undefined when nothing links it to a versioned record. */
  static read(resource: ResourceClass, model: object): LinkValues | undefined {
    const links = versionedLinksOf(resource);
    if (links.length === 0) return undefined;
    const record = model as Record<string, unknown>;
    return links.map((link) => ({ key: record[link.column], type: link.typeColumn === undefined ? undefined : record[link.typeColumn] }));
  }

  /** Every linked record `before` and `after` disagree on (undefined: the record did not exist, or no longer does). */
  changed(resource: ResourceClass, before: LinkValues | undefined, after: LinkValues | undefined): void {
    const links = versionedLinksOf(resource);
    links.forEach((link, i) => {
      const old = before?.[i];
      const now = after?.[i];
      if (old && now && String(old.key) === String(now.key) && old.type === now.type) return;
      if (old) this.linked(link, old);
      if (now) this.linked(link, now);
    });
  }

  /** A record at the other end of a join row added or removed: `key` in `column` of `target`'s records. */
  add(target: ResourceClass, column: string, key: unknown): void {
    if (key === null || key === undefined || versionAttributeOf(target) === undefined) return;
    const id = `${target.type}\u0000${column}`;
    let entry = this.pending.get(id);
    if (!entry) this.pending.set(id, (entry = { target, column, keys: new Map() }));
    entry.keys.set(String(key), key);
  }

  /** A record the write saved: when the save created it or moved its version, a link change needs no second one. */
  saved(node: WriteNode, versionBefore: string | undefined): void {
    if (versionBefore === undefined || node.model === undefined) return;
    if (node.action === 'create' || versionOf(node.resource, node.model) !== versionBefore) this.versioned.add(`${node.resource.type}\u0000${String((node.model as { id?: unknown }).id)}`);
  }

  /** Gives every pending record its new version, and the records the write holds in memory the same one. */
  async apply(held: readonly WriteNode[], transaction: unknown): Promise<void> {
    const at = new Date();
    for (const { target, column, keys } of this.pending.values()) {
      if (column === 'id') for (const key of keys.keys()) if (this.versioned.has(`${target.type}\u0000${key}`)) keys.delete(key);
      if (keys.size === 0) continue;
      const adapter = target.adapterInstance();
      const attribute = versionAttributeOf(target)!;
      if (!adapter.bumpVersions) continue;
      await adapter.bumpVersions(target.model, attribute, { column, keys: [...keys.values()] }, at, transaction);
      for (const node of held) {
        const model = node.model as Record<string, unknown> | undefined;
        if (!model || node.action === 'destroy' || !sameTable(node.resource, target) || !keys.has(String(model[column]))) continue;
        adapter.bumpLoadedVersion?.(model, attribute, at);
      }
    }
    this.pending.clear();
  }

  private linked(link: VersionedLink, value: { key: unknown; type: unknown }): void {
    if (link.typeValue !== undefined && value.type !== link.typeValue) return;
    this.add(link.target, link.targetColumn, value.key);
  }
}

/**
 * New versions for every child linked to `parentId` through `join` (less
 * `keep`), now, before their join rows go: a record destroyed, or a
 * relationship replaced without reading its members.
 */
export async function bumpLinkedThrough(
  target: ResourceClass, join: JoinTable, parentId: unknown, keep: readonly unknown[], transaction: unknown,
): Promise<void> {
  const attribute = versionAttributeOf(target);
  const adapter = target.adapterInstance();
  if (attribute === undefined || !adapter.bumpVersions) return;
  await adapter.bumpVersions(target.model, attribute, { column: join.primaryKey, linkedThrough: join, parentId, keep }, new Date(), transaction);
}

function sameTable(a: ResourceClass, b: ResourceClass): boolean {
  return a === b || a.model === b.model;
}
