import test from 'ava';
import { DataTypes, Sequelize } from 'sequelize';
import { buildSchema, breakingChanges, checkResources, describeRule, fromContext, Resource, ResourceCheckFailed, ResourceConfigurationError, withContext, type RowCondition } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';

/** `allow(action, rule)`: what a declaration accepts, how it is inherited, checked and described. */

test('a rule is checked when declared: an unknown action, operator or value is a configuration error', (t) => {
  const declare = (action: string, rule: unknown) => Resource.allow.call(class extends Resource {}, action as never, rule as never);
  t.throws(() => declare('list', true), { instanceOf: ResourceConfigurationError, message: /unknown action "list"; rules cover read, create, update, destroy, link/ });
  t.throws(() => declare('read', { age: { above: 3 } }), { instanceOf: ResourceConfigurationError, message: /unknown operator "above"/ });
  t.throws(() => declare('read', { tags: [['a']] }), { instanceOf: ResourceConfigurationError, message: /a list holds values only/ });
  t.throws(() => declare('read', { or: { a: 1 } }), { instanceOf: ResourceConfigurationError, message: /\.or: give a list of conditions/ });
  t.throws(() => declare('read', 'admin'), { instanceOf: ResourceConfigurationError, message: /a condition is true, false or an object/ });
  t.throws(() => declare('read', { or: [{ scope: (s: unknown) => s }] }), { instanceOf: ResourceConfigurationError, message: /a scope function is a rule of its own/ });
  t.throws(() => fromContext('user..id'), { instanceOf: ResourceConfigurationError });
  t.notThrows(() => declare('read', { or: [{ age: { gte: 18, not_eq: [20, 21] } }, { not: { name: null } }, { company_id: fromContext('user.companyId') }] }));
});

test('a subclass keeps its parent\'s rules and adds its own: it can narrow, never widen', (t) => {
  class Parent extends Resource {
    static {
      this.allow('read', { company_id: fromContext('companyId') });
    }
  }
  class Child extends Parent {
    static {
      this.allow('read', true);
      this.allow('update', { author_id: fromContext('userId') });
    }
  }
  t.is(Parent.config.rules.length, 1);
  t.deepEqual(Child.config.rules.map((r) => [r.action, r.owner]), [['read', 'Parent'], ['read', 'Child'], ['update', 'Child']]);
});

test('a rule reads as one line in schema.json and mural guards', (t) => {
  t.is(describeRule({ company_id: fromContext('user.companyId') }), 'company_id = context.user.companyId');
  t.is(
    describeRule({ or: [{ 'employee.company_id': fromContext('user.companyId') }, { public: true, age: { gte: 18, not_prefix: 'x' } }] }),
    'employee.company_id = context.user.companyId or (public = true and age >= 18 and not (age starts with "x"))',
  );
  t.is(describeRule({ not: { id: [1, 2], deleted_at: null } }), 'not (id in [1, 2] and deleted_at is null)');
  t.is(describeRule(false), 'no record');
  t.is(describeRule(function ownNotes() { return true; }), 'ownNotes(context)');
  t.is(describeRule(() => true), 'a function of the context');
  t.is(describeRule({ scope: (scope: unknown) => scope }), 'a scope function');
});

function models() {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  const Team = sequelize.define('Team', { name: DataTypes.STRING, company_id: DataTypes.INTEGER }, { timestamps: false });
  const Member = sequelize.define('Member', { name: DataTypes.STRING, team_id: DataTypes.INTEGER }, { timestamps: false });
  return { sequelize, Team, Member };
}

test('checkResources reports a rule naming a column or relationship that is not there, with a did-you-mean', (t) => {
  const { Team, Member } = models();
  class TeamResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = Team;
      this.attribute('name', 'string');
      this.hasMany('members', { resource: () => MemberResource });
      this.allow('read', { compnay_id: fromContext('companyId') });
    }
  }
  class MemberResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = Member;
      this.attribute('name', 'string');
      this.belongsTo('team', { resource: () => TeamResource });
      this.allow('read', { 'team.company': 1 });
      this.allow('update', { 'teem.company_id': 1 });
      this.allow('destroy', (ctx) => ({ nothing_checked_here: ctx.x as number }));
    }
  }
  class NoteResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = Member;
      this.type = 'notes';
      this.hasMany('members', { resource: () => MemberResource, foreignKey: 'team_id' });
      this.allow('read', { 'members.name': 'x' });
    }
  }
  const error = t.throws(() => checkResources([TeamResource, MemberResource, NoteResource]), { instanceOf: ResourceCheckFailed });
  const problems = (error as ResourceCheckFailed).problems.map((p) => `${p.resource}.${p.member}: ${p.problem}`);
  t.deepEqual(problems, [
    `TeamResource.allow('read'): "compnay_id" is not a column of model Team; did you mean "company_id"?`,
    `MemberResource.allow('read'): "company" is not a column of model Team; did you mean "company_id"?`,
    `MemberResource.allow('update'): "teem.company_id" names no relationship "teem"; did you mean "team"?`,
    `NoteResource.allow('read'): "members.name" goes through has_many "members"; rules reach through belongs_to and has_one only`,
  ]);
});

test('schema.json lists each action\'s rules; mural schema check reports a rule added or changed as breaking', (t) => {
  const { Team } = models();
  const define = (rule: RowCondition | undefined) =>
    class TeamResource extends Resource {
      static {
        this.adapter = SequelizeAdapter;
        this.model = Team;
        this.type = 'teams';
        this.attribute('name', 'string');
        if (rule) this.allow('read', rule);
      }
    };
  const open = buildSchema([define(undefined)]);
  const tenant = buildSchema([define({ company_id: fromContext('companyId') })]);
  t.deepEqual(tenant.resources[0]!.rules, { read: ['company_id = context.companyId'] });
  t.is(open.resources[0]!.rules, undefined);
  t.deepEqual(breakingChanges(open, tenant), ['TeamResource: resource became rule-bound for :read.']);
  const narrower = buildSchema([define({ company_id: fromContext('companyId'), name: { not_eq: 'Secret' } })]);
  t.deepEqual(breakingChanges(tenant, narrower), ['TeamResource: rules for :read changed: company_id = context.companyId and not (name = "Secret").']);
  t.deepEqual(breakingChanges(tenant, open), [], 'a rule removed only widens what a client sees');
});

test('a rule function may not return a scope rule or a malformed condition: the application\'s mistake, said as such', async (t) => {
  const { sequelize, Team } = models();
  await sequelize.sync();
  class TeamResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.model = Team;
      this.type = 'teams';
      this.attribute('name', 'string');
      this.allow('read', (ctx) => (ctx.bad ? ('everyone' as never) : true));
    }
  }
  t.deepEqual(await withContext({}, () => TeamResource.all({}).data), []);
  await t.throwsAsync(withContext({ bad: true }, () => TeamResource.all({}).data), { instanceOf: ResourceConfigurationError, message: /TeamResource\.allow\('read', fn\): a condition is true, false or an object/ });
  await sequelize.close();
});
