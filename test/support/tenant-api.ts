import express, { type Express } from 'express';
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { fromContext, Resource, type MuralContext } from '../../core/index.ts';
import { muralRouter } from '../../plugins/express/index.ts';
import { SequelizeAdapter } from '../../plugins/sequelize/index.ts';

/** Who a tenant test acts as: a user of one company, an admin of it, or nobody. */
export interface TenantUser {
  companyId: number;
  employeeId: number;
  role?: 'admin';
}

/** The context a tenant app builds: `{ user }`, or `{}` for an anonymous request. */
export interface TenantContext extends MuralContext {
  user?: TenantUser;
}

export type TenantModels = Record<'Company' | 'Department' | 'Employee' | 'Team' | 'Note', ModelStatic<Model>>;

/**
 * Two companies sharing every table, as a tenant-per-row app does. The
 * seed links some records across companies (an employee of one in a
 * department of the other, a membership of a team of the other), which no
 * well-behaved app writes but every read path must still keep apart.
 */
export function defineTenantModels(sequelize: Sequelize): TenantModels {
  const id = { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true };
  const Company = sequelize.define('Company', { id, name: DataTypes.STRING }, { tableName: 'companies', timestamps: false });
  const Department = sequelize.define('Department', { id, name: DataTypes.STRING, company_id: DataTypes.INTEGER }, { tableName: 'departments', timestamps: false });
  const Employee = sequelize.define(
    'Employee',
    { id, name: DataTypes.STRING, age: DataTypes.INTEGER, company_id: DataTypes.INTEGER, department_id: DataTypes.INTEGER },
    { tableName: 'employees', timestamps: false },
  );
  const Team = sequelize.define('Team', { id, name: DataTypes.STRING, open: DataTypes.BOOLEAN, company_id: DataTypes.INTEGER }, { tableName: 'teams', timestamps: false });
  const Note = sequelize.define(
    'Note',
    { id, body: DataTypes.STRING, public: DataTypes.BOOLEAN, author_id: DataTypes.INTEGER, employee_id: DataTypes.INTEGER },
    { tableName: 'notes', timestamps: false },
  );
  sequelize.define('TeamMembership', { employee_id: { type: DataTypes.INTEGER, primaryKey: true }, team_id: { type: DataTypes.INTEGER, primaryKey: true } }, { tableName: 'employee_teams', timestamps: false });
  return { Company, Department, Employee, Team, Note };
}

export async function seedTenants(models: TenantModels): Promise<void> {
  const { Company, Department, Employee, Team, Note } = models;
  await Company.bulkCreate([{ name: 'Acme' }, { name: 'Globex' }]);
  await Department.bulkCreate([{ name: 'Acme Eng', company_id: 1 }, { name: 'Acme Ops', company_id: 1 }, { name: 'Globex Eng', company_id: 2 }]);
  await Employee.bulkCreate([
    { name: 'Ada', age: 36, company_id: 1, department_id: 1 },
    { name: 'Grace', age: 45, company_id: 1, department_id: 2 },
    { name: 'Linus', age: 50, company_id: 2, department_id: 3 },
    { name: 'Mallory', age: 30, company_id: 1, department_id: 3 },
    { name: 'Eve', age: 28, company_id: 2, department_id: 1 },
  ]);
  await Team.bulkCreate([{ name: 'Acme Red', open: true, company_id: 1 }, { name: 'Acme Blue', open: false, company_id: 1 }, { name: 'Globex Green', open: true, company_id: 2 }]);
  await Employee.sequelize!.models.TeamMembership!.bulkCreate([
    { employee_id: 1, team_id: 1 }, { employee_id: 1, team_id: 3 }, { employee_id: 2, team_id: 2 }, { employee_id: 3, team_id: 3 }, { employee_id: 5, team_id: 1 },
  ]);
  await Note.bulkCreate([
    { body: 'Ada on Ada', public: false, author_id: 1, employee_id: 1 },
    { body: 'Grace on Ada', public: false, author_id: 2, employee_id: 1 },
    { body: 'Linus on Linus', public: false, author_id: 3, employee_id: 3 },
    { body: 'Linus, public', public: true, author_id: 3, employee_id: 3 },
    { body: 'Ada on Eve', public: false, author_id: 1, employee_id: 5 },
  ]);
}

/**
 * The Resources, one rule on the base scoping every tenant table to the
 * caller's company; employees an ordinary user may update only for
 * themselves, and destroy only as an admin; teams linkable only while open;
 * notes read through their employee's company or when public, written by
 * their author.
 */
export function defineTenantResources(models: TenantModels) {
  class TenantResource extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
      this.endpointNamespace = '/t';
      this.allow('read', { company_id: fromContext('user.companyId') });
      this.allow('create', { company_id: fromContext('user.companyId') });
    }
  }
  class DepartmentResource extends TenantResource {
    static {
      this.model = models.Department;
      this.type = 'departments';
      this.attribute('name', 'string');
      this.attribute('company_id', 'integer');
      this.hasMany('employees', { resource: () => EmployeeResource });
    }
  }
  class EmployeeResource extends TenantResource {
    static {
      this.model = models.Employee;
      this.type = 'employees';
      this.attribute('name', 'string');
      this.attribute('age', 'integer');
      this.attribute('company_id', 'integer');
      this.attribute('department_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.stat({ age: ['sum', 'maximum'] });
      this.belongsTo('department', { resource: () => DepartmentResource });
      this.hasMany('notes', { resource: () => NoteResource });
      this.manyToMany('teams', { resource: () => TeamResource, foreignKey: { employee_teams: 'employee_id' } });
      this.allow('update', (ctx: TenantContext) => (ctx.user?.role === 'admin' ? true : { id: fromContext('user.employeeId') }));
      this.allow('destroy', (ctx: TenantContext) => ctx.user?.role === 'admin');
    }
  }
  class TeamResource extends TenantResource {
    static {
      this.model = models.Team;
      this.type = 'teams';
      this.attribute('name', 'string');
      this.attribute('open', 'boolean');
      this.manyToMany('employees', { resource: () => EmployeeResource, foreignKey: { employee_teams: 'team_id' } });
      this.allow('link', { open: true });
    }
  }
  class NoteResource extends Resource {
    static {
      this.adapter = SequelizeAdapter;
      this.endpointNamespace = '/t';
      this.model = models.Note;
      this.type = 'notes';
      this.attribute('body', 'string');
      this.attribute('public', 'boolean');
      this.attribute('author_id', 'integer', { only: ['readable', 'filterable'] });
      this.attribute('employee_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.belongsTo('employee', { resource: () => EmployeeResource });
      this.allow('read', { or: [{ 'employee.company_id': fromContext('user.companyId') }, { public: true }] });
      this.allow('update', { author_id: fromContext('user.employeeId') });
      this.allow('destroy', { author_id: fromContext('user.employeeId') });
      this.beforeAttributes(function (attributes) {
        attributes.author_id = (this.context as TenantContext | undefined)?.user?.employeeId;
      }, { only: ['create'] });
    }
  }
  return { DepartmentResource, EmployeeResource, TeamResource, NoteResource };
}

export type TenantResources = ReturnType<typeof defineTenantResources>;

/** The context of a tenant request: `X-Company`, `X-Employee` and `X-Role` headers, a test's stand-in for a verified token. */
function tenantContext(req: express.Request): TenantContext {
  const company = req.header('X-Company');
  if (!company) return {};
  return { user: { companyId: Number(company), employeeId: Number(req.header('X-Employee') ?? 0), ...(req.header('X-Role') === 'admin' && { role: 'admin' as const }) } };
}

export function tenantApp(resources: TenantResources): Express {
  const app = express();
  app.use(muralRouter({ resources: Object.values(resources), context: tenantContext, operations: true, explorer: false }));
  return app;
}

/** The headers a tenant request sends as `user`. */
export function as(user: TenantUser | undefined): Record<string, string> {
  if (!user) return {};
  return { 'X-Company': String(user.companyId), 'X-Employee': String(user.employeeId), ...(user.role && { 'X-Role': user.role }) };
}

/** Every tenant table's rows in key order: a refused write must leave them all as they were. */
export async function tenantRows(sequelize: Sequelize): Promise<Record<string, unknown>> {
  const tables: Record<string, unknown> = {};
  for (const name of ['companies', 'departments', 'employees', 'teams', 'employee_teams', 'notes']) tables[name] = (await sequelize.query(`SELECT * FROM ${name} ORDER BY 1, 2`))[0];
  return tables;
}
