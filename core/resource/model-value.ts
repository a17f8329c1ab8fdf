/**
 * A record's value of `name`, whether the adapter hands back model instances
 * (Sequelize's `get`) or plain rows.
 */
export function modelValue(record: object, name: string): unknown {
  const holder = record as { get?: (name: string) => unknown } & Record<string, unknown>;
  return typeof holder.get === 'function' ? holder.get(name) : holder[name];
}
