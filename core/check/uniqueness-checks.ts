import type { ResourceBase } from '../resource/resource-base.ts';
import type { ProblemList } from './problem-list.ts';

type ResourceClass = typeof ResourceBase;

/**
 * No two Resources of one namespace share a type (a body's `type`, an
 * include's records, an atomic operation's target would be either), and no
 * two serve one action at one path (the first routed would answer alone).
 */
export function checkUniqueness(resources: readonly ResourceClass[], problems: ProblemList): void {
  const types = new Map<string, ResourceClass>();
  const routes = new Map<string, ResourceClass>();
  // a second Resource of one type is also on that type's endpoint: one fix, so one problem
  const sameType = new Map<ResourceClass, ResourceClass>();
  for (const resource of resources) {
    const namespace = resource.endpointNamespace ?? '';
    const typeKey = `${namespace} ${resource.type}`;
    const owner = types.get(typeKey);
    if (owner && owner !== resource) {
      const where = namespace ? ` in ${namespace}` : '';
      problems.add({ resource, member: 'type', sites: ['type'] }, `"${resource.type}" is also the type of ${owner.name}${where}; give one of them a type of its own`);
      sameType.set(resource, owner);
    } else {
      types.set(typeKey, resource);
    }
    checkRoutes(resource, routes, (owner) => sameType.get(resource) !== owner, problems);
  }
}

function checkRoutes(resource: ResourceClass, routes: Map<string, ResourceClass>, report: (owner: ResourceClass) => boolean, problems: ProblemList): void {
  const clashes = new Map<string, { path: string; owner: ResourceClass; actions: string[] }>();
  for (const endpoint of resource.endpoints) {
    for (const action of endpoint.actions) {
      const key = `${endpoint.path} ${action}`;
      const owner = routes.get(key);
      if (!owner) {
        routes.set(key, resource);
      } else if (owner !== resource && report(owner)) {
        const clash = clashes.get(`${endpoint.path} ${owner.name}`) ?? { path: endpoint.path, owner, actions: [] };
        clash.actions.push(action);
        clashes.set(`${endpoint.path} ${owner.name}`, clash);
      }
    }
  }
  for (const { path, owner, actions } of clashes.values()) {
    problems.add({ resource, member: 'endpoint', sites: ['endpoint', `endpoint:${path}`, 'type'] }, `${path} (${actions.join(', ')}) is also served by ${owner.name}; give one of them another type or primaryEndpoint`);
  }
}
