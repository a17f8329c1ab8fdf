/**
 * A guard decides a flag per request. `true`/`false` are fixed; a string names
 * a method on the Resource; a function is called with the Resource as `this`.
 * The function's declared arity decides its arguments: none, the model, or the
 * model and the attribute name, so a model is loaded only when asked for.
 */
export type GuardFunction = (this: GuardReceiver, model?: never, name?: string) => boolean;
export type Guard = boolean | string | ((...args: never[]) => boolean);

export interface GuardReceiver {
  readonly context: Record<string, unknown> | undefined;
}

/** A guard reduced to something callable, with its arity known in advance. */
export interface ResolvedGuard {
  /** Fixed answer, when the guard is a boolean. */
  fixed?: boolean;
  /** How many arguments the guard declares (0, 1 or 2). */
  arity: number;
  /** A readable label for listings and schema (`isAdmin`, `<function>`). */
  label: string;
  call(receiver: object, model?: unknown, name?: string): boolean;
}

export function resolveGuard(guard: Guard, receiverPrototype: object, owner: string): ResolvedGuard {
  if (typeof guard === 'boolean') {
    return { fixed: guard, arity: 0, label: String(guard), call: () => guard };
  }
  if (typeof guard === 'string') {
    const method = (receiverPrototype as Record<string, unknown>)[guard];
    if (typeof method !== 'function') {
      throw new TypeError(`Guard "${guard}" of ${owner} is not a method of the Resource`);
    }
    return fromFunction(method as (...args: unknown[]) => unknown, guard);
  }
  return fromFunction(guard as (...args: unknown[]) => unknown, guard.name || '<function>');
}

function fromFunction(fn: (...args: unknown[]) => unknown, label: string): ResolvedGuard {
  const arity = Math.min(fn.length, 2);
  return {
    arity,
    label,
    call(receiver, model, name) {
      const args = arity === 0 ? [] : arity === 1 ? [model] : [model, name];
      return Boolean(fn.apply(receiver, args));
    },
  };
}

/** Whether a flag value is a guard (as opposed to a fixed boolean). */
export function isGuarded(flag: Guard | 'required'): boolean {
  return typeof flag === 'string' ? flag !== 'required' : typeof flag === 'function';
}
