/**
 * The model a Resource class `R` serves, as its blocks, guards, hooks and
 * `data` are typed: the instance type of `model` when the class declares it
 * precisely (`declare static model: typeof Employee`, beside `this.model =
 * Employee`), `unknown` otherwise. Annotating a block's parameter works either way.
 */
export type ModelOf<R> = R extends { readonly model: abstract new (...args: never) => infer M } ? M : unknown;
