import { Sequelize, type Model, type ModelStatic } from 'sequelize';
import type { Adapter, AdapterTarget, FilterClause, SortDirection } from '../../core/index.ts';
import { ResourceConfigurationError } from '../../core/index.ts';
import { columnOf, filterCondition } from './filter-condition.ts';
import { SequelizeScope } from './sequelize-scope.ts';

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
    return scope.model.findAll(scope.findOptions);
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
