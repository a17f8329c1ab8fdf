import type { CodeStyle } from '../commands/host/code-style.ts';
import type { TestRunner } from '../commands/host/package-type.ts';

/** How a generated test file spells its imports, hooks, tests and assertions for one runner. */
export interface TestDialect {
  imports(code: CodeStyle): string;
  before: string;
  after: string;
  /** One test that runs after the one before it (the generated tests share a record). */
  test(name: string, body: string): string;
  equal(actual: string, expected: string): string;
  deepEqual(actual: string, expected: string): string;
  truthy(actual: string): string;
}

const ava: TestDialect = {
  imports: (code) => code.import('test', 'ava'),
  before: 'test.before',
  after: 'test.after.always',
  test: (name, body) => `test.serial('${name}', async (t) => {\n${body}\n});`,
  equal: (actual, expected) => `t.is(${actual}, ${expected});`,
  deepEqual: (actual, expected) => `t.deepEqual(${actual}, ${expected});`,
  truthy: (actual) => `t.truthy(${actual});`,
};

// node:test runs a file's top-level tests one after another, in order
const node: TestDialect = {
  imports: (code) => `${code.import(['test', 'before', 'after'], 'node:test')}\n${code.import('assert', 'node:assert/strict')}`,
  before: 'before',
  after: 'after',
  test: (name, body) => `test('${name}', async () => {\n${body}\n});`,
  equal: (actual, expected) => `assert.equal(${actual}, ${expected});`,
  deepEqual: (actual, expected) => `assert.deepEqual(${actual}, ${expected});`,
  truthy: (actual) => `assert.ok(${actual});`,
};

// Vitest runs a file's tests in order unless told otherwise
const vitest: TestDialect = {
  imports: (code) => code.import(['test', 'beforeAll', 'afterAll', 'expect'], 'vitest'),
  before: 'beforeAll',
  after: 'afterAll',
  test: (name, body) => `test('${name}', async () => {\n${body}\n});`,
  equal: (actual, expected) => `expect(${actual}).toBe(${expected});`,
  deepEqual: (actual, expected) => `expect(${actual}).toEqual(${expected});`,
  truthy: (actual) => `expect(${actual}).toBeTruthy();`,
};

export const TEST_DIALECTS: Record<TestRunner, TestDialect> = { ava, node, vitest };
