import type { Schema } from '../schema/schema-types.ts';

/** A Resource in the diagram: its class name and its JSON:API type. */
export interface DiagramNode {
  name: string;
  type: string;
}

/** A relationship kind (`has_many`, `belongs_to`, …), or `variant` from a polymorphic parent to each child type. */
export type DiagramEdgeKind = string;

/** One relationship, from the Resource declaring it to one Resource it leads to. */
export interface DiagramEdge {
  from: string;
  to: string;
  /** The relationship's name (`positions`); the child's type for a `variant` edge. */
  name: string;
  kind: DiagramEdgeKind;
  /** A guard decides per request whether the relationship is readable or writable. */
  guarded: boolean;
  /** To-one: at most one related record. */
  single: boolean;
}

export interface ResourceGraph {
  /** Sorted by name. */
  nodes: DiagramNode[];
  /** Sorted by source, then relationship name, then target. */
  edges: DiagramEdge[];
}

const TO_ONE = new Set(['belongs_to', 'has_one', 'polymorphic_belongs_to']);

/**
 * The relationships of a schema (`buildSchema`'s, or what a request may see
 * of it) as a graph. A polymorphic belongs_to gives an edge to each Resource
 * it may lead to; a polymorphic parent gets a `variant` edge to each child.
 * Edges to Resources absent from the schema are left out, so a graph drawn
 * from a user's view of the schema names nothing that view hides.
 */
export function resourceGraph(schema: Pick<Schema, 'resources'>): ResourceGraph {
  const nodes = schema.resources.map(({ name, type }) => ({ name, type })).sort((a, b) => compare(a.name, b.name));
  const known = new Set(nodes.map((node) => node.name));
  const edges: DiagramEdge[] = [];
  for (const resource of schema.resources) {
    for (const [name, relationship] of Object.entries(resource.relationships)) {
      const targets = relationship.resources ?? (relationship.resource ? [relationship.resource] : []);
      const single = relationship.single === true || TO_ONE.has(relationship.type);
      for (const to of targets) {
        if (known.has(to)) edges.push({ from: resource.name, to, name, kind: relationship.type, guarded: relationship.guard === true, single });
      }
    }
    // a child lists its parent's variants, itself among them; only the parent draws them
    if (resource.polymorphic && !resource.children.includes(resource.name)) {
      for (const child of resource.children) {
        const type = schema.resources.find((r) => r.name === child)?.type ?? child;
        if (known.has(child)) edges.push({ from: resource.name, to: child, name: type, kind: 'variant', guarded: false, single: false });
      }
    }
  }
  edges.sort((a, b) => compare(a.from, b.from) || compare(a.name, b.name) || compare(a.to, b.to));
  return { nodes, edges };
}

export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
