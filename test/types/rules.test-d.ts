/**
 * The types of row rules and what comes with them: `allow` takes a
 * condition as data, a function typed by the app's own context, or a scope
 * function typed by the adapter's scope; mistakes stay compile errors. Only
 * compiled, never run (see core.test-d.ts).
 */
import { expectTypeOf } from 'expect-type';
import { Sequelize } from 'sequelize';
import { fromContext, Resource, RowForbidden, Unauthorized, type Permissions, type RowCondition, type SoftDeleteOptions } from 'mural';
import { SequelizeAdapter, type SequelizeScope } from 'mural/sequelize';

interface AppContext {
  user?: { id: number; companyId: number; role?: 'admin' };
}

const sequelize = new Sequelize('sqlite::memory:', { logging: false });
const Note = sequelize.define('Note', {});

export class NoteResource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.model = Note;
    this.allow('read', { company_id: fromContext('user.companyId') });
    this.allow('read', { or: [{ 'author.company_id': fromContext('user.companyId') }, { public: true }] });
    this.allow('update', { age: { gte: 18, not_eq: [20, 21] }, deleted_at: null });
    this.allow('update', (ctx: AppContext) => (ctx.user?.role === 'admin' ? true : { author_id: ctx.user?.id ?? null }));
    this.allow('destroy', { scope: (scope: SequelizeScope, ctx: AppContext) => scope.where({ author_id: ctx.user?.id ?? 0 }) });
    this.allow('link', false);
    // @ts-expect-error an action rules do not cover
    this.allow('index', true);
    // @ts-expect-error an operator no rule knows
    this.allow('read', { age: { above: 3 } });
    // @ts-expect-error a function must return a condition
    this.allow('read', () => 'everyone');
    this.softDelete('deleted_at', { trashed: 'isEditor', purge: () => false });
    // @ts-expect-error a guard, not a number
    this.softDelete('deleted_at', { purge: 1 });
  }
  isEditor(): boolean {
    return true;
  }
}

expectTypeOf<RowCondition>().toMatchTypeOf<boolean | object>();
expectTypeOf<Permissions>().toEqualTypeOf<Record<'update' | 'destroy', boolean>>();
expectTypeOf<SoftDeleteOptions<NoteResource>['trashed']>().not.toBeAny();
expectTypeOf(new RowForbidden('no').toJsonapi().errors).items.toHaveProperty('code');
expectTypeOf(new Unauthorized().responseHeaders()).toEqualTypeOf<Record<string, string>>();
