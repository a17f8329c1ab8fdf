import { Op, Sequelize, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import type { ConditionTree } from '../../core/index.ts';
import { filterCondition } from './filter-condition.ts';
import { relatedCondition } from './related-condition.ts';

/**
 * A condition tree (row rules) as one WHERE: clauses as filters write them,
 * related conditions as `filter[has]` does, constants as `1=1` and `1=0`.
 */
export function treeCondition(model: ModelStatic<Model>, tree: ConditionTree): WhereOptions {
  switch (tree.kind) {
    case 'clause':
      return filterCondition(model, tree.clause);
    case 'related':
      return relatedCondition(model, tree.condition);
    case 'constant':
      return Sequelize.literal(tree.value ? '1=1' : '1=0');
    case 'and':
      return { [Op.and]: tree.conditions.map((part) => treeCondition(model, part)) };
    case 'or':
      return { [Op.or]: tree.conditions.map((part) => treeCondition(model, part)) };
    case 'not':
      // Sequelize drops a NOT around a bare `where()` or literal; wrapping it in AND keeps it
      return { [Op.not]: { [Op.and]: [treeCondition(model, tree.condition)] } };
  }
}
