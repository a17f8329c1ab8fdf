import test from 'ava';
import { ResourceCheckFailed } from '../../../core/index.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import { applicationResource, Employee, Position } from '../../support/check-fixtures.ts';

/** `muralRouter` checks its Resources (checkResources) as it is built, so a mistake stops the server before it listens. */

function api(broken: boolean) {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.attribute(broken ? 'titel' : 'title', 'string');
    }
  }
  class PositionResource extends Base {
    static {
      this.model = Position;
      this.belongsTo(broken ? 'employe' : 'employee');
    }
  }
  return [EmployeeResource, PositionResource];
}

test('the router refuses to build, synchronously, with every problem at once', (t) => {
  const error = t.throws(() => muralRouter({ resources: api(true) }), { instanceOf: ResourceCheckFailed });
  t.deepEqual(error?.problems.map((p) => `${p.resource}.${p.member}: ${p.problem}`), [
    'EmployeeResource.titel: not a column of model Employee; did you mean "title"?',
    'PositionResource.employe: no Resource named "employes" or "EmployeResource"; did you mean "employee"?',
  ]);
  t.regex(error?.message ?? '', /^The Resources have 2 problems:\n {2}EmployeeResource\.titel: .* \(at test\/plugins\/express\/resource-check\.test\.ts:13:\d+\)\n/);
});

test('fixed, it builds', (t) => {
  t.notThrows(() => muralRouter({ resources: api(false) }));
});

test('checkResources: false builds it anyway, for Resources that take shape later', (t) => {
  t.notThrows(() => muralRouter({ resources: api(true), checkResources: false }));
});
