import type { MuralContext } from '../context.ts';
import { noteGuard } from './guard-answers.ts';

/**
 * A guard decides a flag per request. `true`/`false` are fixed; a string names
 * a method on the Resource; a function is called with the Resource as `this`.
 * The function's declared arity decides its arguments: none, the model, or the
 * model and the attribute name, so a model is loaded only when asked for.
 */
export type GuardFunction = (this: GuardReceiver, model?: never, name?: string) => boolean;
/** A guard as recorded; the DSL takes the precise forms below. */
export type Guard = boolean | string | ((...args: never[]) => boolean);

/** The names of `I`'s methods (guards and hooks name them); any string when `I` is not known. */
export type MethodName<I = never> = [I] extends [never]
  ? string
  : { [K in keyof I]-?: I[K] extends (...args: never) => unknown ? K : never }[keyof I] & string;

/** A guard that takes no arguments: fixed, a method of the Resource `I`, or a function reading `this.context`. */
export type PlainGuard<I = never> = boolean | MethodName<I> | ((this: I) => boolean);

/** A guard on a record's attribute: it may also declare the model `M` and the attribute name as arguments. */
export type ModelGuard<I = never, M = never> = boolean | MethodName<I> | ((this: I, model: M, name: string) => boolean);

export interface GuardReceiver {
  readonly context: MuralContext | undefined;
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

/**
 * Turns a guard (a boolean, a method name or a function) into a callable with its arity, for code
 * that evaluates guards as Mural does; `owner` names the Resource in error messages.
 */
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
      const answer = Boolean(fn.apply(receiver, args));
      noteGuard(fn, receiver, arity, answer);
      return answer;
    },
  };
}

/** Whether a flag value is a guard (as opposed to a fixed boolean). */
export function isGuarded(flag: Guard | 'required'): boolean {
  return typeof flag === 'string' ? flag !== 'required' : typeof flag === 'function';
}
