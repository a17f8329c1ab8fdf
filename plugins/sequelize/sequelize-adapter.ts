import { Sequelize, type Model, type ModelStatic } from 'sequelize';
import type { Adapter, AdapterTarget, FilterClause, JoinTable, SortDirection } from '../../core/index.ts';
import { ResourceConfigurationError } from '../../core/index.ts';
import { columnOf, filterCondition } from './filter-condition.ts';
import { SequelizeScope } from './sequelize-scope.ts';
import { findPerGroup } from './grouped-query.ts';
import { joinAnnotation, joinCondition, PARENT_IDS } from './join-table.ts';

const AGGREGATES = { sum: 'SUM', average: 'AVG', maximum: 'MAX', minimum: 'MIN' } as const;

/** Serves Resources whose `model` is a Sequelize model. */
export class SequelizeAdapter implements Adapter<SequelizeScope, Model> {
  constructor(private readonly target: AdapterTarget) {}

  baseScope(model: unknown): SequelizeScope {
    if (typeof model !== 'function' || !('findAll' in model)) {
      throw new ResourceConfigurationError(`${this.target.name}.model is not a Sequelize model`);
    }
    return SequelizeScope.of(model as ModelStatic<Model>);
  }

  filter(scope: SequelizeScope, clause: FilterClause): SequelizeScope {
    return scope.where(filterCondition(scope.model, clause));
  }

  order(scope: SequelizeScope, column: string, direction: SortDirection): SequelizeScope {
    return scope.order([columnOf(scope.model, column), direction.toUpperCase()]);
  }

  paginate(scope: SequelizeScope, size: number, number: number): SequelizeScope {
    return scope.limit(size).offset((number - 1) * size);
  }

  resolve(scope: SequelizeScope): Promise<Model[]> {
    return scope.perGroup ? findPerGroup(scope) : scope.model.findAll(scope.findOptions);
  }

  limitPerGroup(scope: SequelizeScope, column: string, limit: number): SequelizeScope {
    return scope.limitPerGroup(column, limit);
  }

  filterThrough(scope: SequelizeScope, join: JoinTable, parentIds: readonly unknown[], annotate: boolean): SequelizeScope {
    const narrowed = scope.where(joinCondition(scope.model, join, parentIds));
    return annotate ? narrowed.annotate(joinAnnotation(scope.model, join, parentIds), PARENT_IDS) : narrowed;
  }

  throughParentIds(record: Model): unknown[] {
    const value = record.get(PARENT_IDS) as unknown;
    return value === null || value === undefined ? [] : String(value).split(',');
  }

  count(scope: SequelizeScope): Promise<number> {
    const { where, include } = scope.unpaginated().findOptions;
    const primaryKey = scope.model.primaryKeyAttribute;
    return scope.model.count({ where, include, distinct: true, col: primaryKey });
  }

  async calculate(scope: SequelizeScope, column: string, calculation: keyof typeof AGGREGATES): Promise<unknown> {
    const options = scope.unpaginated().findOptions;
    const row = (await scope.model.findOne({
      ...options,
      attributes: [[Sequelize.fn(AGGREGATES[calculation], columnOf(scope.model, column)), 'value']],
      raw: true,
    })) as unknown as { value: unknown } | null;
    return row?.value ?? null;
  }
}
