import type { Sequelize } from 'sequelize';

/** Counts the calls that go through `sequelize.query`: the path Mural's direct statements skip. */
export function countQueryCalls(sequelize: Sequelize): { readonly calls: number; restore(): void } {
  const query = sequelize.query;
  const counter = { calls: 0, restore: () => void (sequelize.query = query) };
  sequelize.query = ((...args: Parameters<Sequelize['query']>) => {
    counter.calls++;
    return query.apply(sequelize, args);
  }) as Sequelize['query'];
  return counter;
}
