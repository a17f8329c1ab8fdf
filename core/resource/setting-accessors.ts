import { declaredAt } from './declaration-sites.ts';
import { configOf, type ResourceSettings } from './resource-config.ts';
import { bumpRevision } from './revision.ts';

const SETTING_NAMES = [
  'model', 'description', 'adapter', 'baseUrl', 'endpointNamespace', 'defaultSort', 'defaultPageSize', 'maxPageSize',
  'maxIncludeDepth', 'maxIncludes', 'maxIncludedRecords', 'maxFilterValues', 'validateEndpoints', 'autolink', 'relationshipLinks', 'paginationLinks', 'filtersAcceptNilByDefault', 'polymorphic',
  'attributesReadableByDefault', 'attributesWritableByDefault', 'attributesSortableByDefault',
  'attributesFilterableByDefault', 'attributesSchemaByDefault', 'versionAttribute', 'cacheControl', 'clientGeneratedIds',
] as const satisfies ReadonlyArray<keyof ResourceSettings>;

/**
 * Settings are accessors on the base class so that `this.x = …` in a
 * subclass's static block writes that subclass's config, not a shared field.
 */
export function defineSettingAccessors(base: object): void {
  for (const name of SETTING_NAMES) {
    Object.defineProperty(base, name, {
      configurable: true,
      get(this: object) {
        return configOf(this).settings[name];
      },
      set(this: object, value: unknown) {
        declaredAt(this, name);
        bumpRevision();
        (configOf(this).settings as unknown as Record<string, unknown>)[name] = value;
      },
    });
  }
}
