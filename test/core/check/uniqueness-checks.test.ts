import test from 'ava';
import { applicationResource, Employee, problemsOf, refusedUntilFixed } from '../../support/check-fixtures.ts';

/** checkResources across Resources: one type, one endpoint, one Resource each. */

test('two Resources of one type', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
    }
  }
  class StaffResource extends Base {
    static {
      this.model = Employee;
      this.type = broken ? 'employees' : 'staff';
    }
  }
  return [EmployeeResource, StaffResource];
}, ['StaffResource.type: "employees" is also the type of EmployeeResource; give one of them a type of its own']);

test('two Resources serving one action at one path', refusedUntilFixed, (broken) => {
  const Base = applicationResource();
  class EmployeeResource extends Base {
    static {
      this.model = Employee;
    }
  }
  class StaffResource extends Base {
    static {
      this.model = Employee;
      this.primaryEndpoint(broken ? '/employees' : '/staff', ['index', 'show']);
    }
  }
  return [EmployeeResource, StaffResource];
}, ['StaffResource.endpoint: /employees (index, show) is also served by EmployeeResource; give one of them another type or primaryEndpoint']);

test('one type in two namespaces is two APIs, not a clash', (t) => {
  const Base = applicationResource();
  class V1EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.type = 'employees';
      this.endpointNamespace = '/v1';
    }
  }
  class V2EmployeeResource extends Base {
    static {
      this.model = Employee;
      this.type = 'employees';
      this.endpointNamespace = '/v2';
    }
  }
  t.deepEqual(problemsOf([V1EmployeeResource, V2EmployeeResource]), []);
});
