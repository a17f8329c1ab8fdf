import test from 'ava';
import { baseResourceOf, findResourceClasses, resourceLocations, resourcesBuiltInFunctions } from '../../../commands/init/find-resources.ts';

const files = [
  {
    path: 'src/resources/application-resource.ts',
    code: "import { Resource } from 'mural';\nexport class ApplicationResource extends Resource {\n  static { this.abstractClass = true; }\n}\n",
  },
  { path: 'src/resources/book-resource.ts', code: "export class BookResource extends ApplicationResource {\n  static { this.type = 'books'; }\n}\n" },
  { path: 'src/resources/admin/audit-resource.ts', code: 'class AuditResource extends BookResource {}\nexport default AuditResource;\n' },
  { path: 'src/resources/index.ts', code: "export * from './book-resource.js';\n" },
  { path: 'src/other/resource.ts', code: "import { Resource } from 'some-http-library';\nexport class Thing extends Resource {}\n" },
  { path: 'src/app.ts', code: "import * as mural from 'mural';\nexport class AuthorResource extends mural.Resource {}\nexport const app = 1;\n" },
];

test('Resources are subclasses of mural\'s Resource, at any depth; another library\'s Resource is not', (t) => {
  const classes = findResourceClasses(files);
  t.deepEqual(classes.map((c) => [c.name, c.base, c.abstract, c.exportName]), [
    ['ApplicationResource', 'Resource', true, 'ApplicationResource'],
    ['BookResource', 'ApplicationResource', false, 'BookResource'],
    ['AuditResource', 'BookResource', false, 'default'],
    ['AuthorResource', 'mural.Resource', false, 'AuthorResource'],
  ]);
  t.is(classes[1]!.type, 'books');
  t.is(baseResourceOf(classes)?.name, 'ApplicationResource');
});

test('a directory of Resources is one location (nested ones included); Resources among other modules are listed as files', (t) => {
  const classes = findResourceClasses(files);
  t.deepEqual(resourceLocations(classes, files), ['src/resources', 'src/app.ts']);
  const mixed = [...files, { path: 'src/resources/helpers.ts', code: 'export const x = 1;\n' }];
  t.deepEqual(resourceLocations(classes, mixed), ['src/resources', 'src/app.ts'], 'a directory named resources is taken whole');
  const api = [
    { path: 'src/api/book.ts', code: "import { Resource } from 'mural';\nexport class BookResource extends Resource {}\n" },
    { path: 'src/api/router.ts', code: 'export const router = 1;\n' },
  ];
  t.deepEqual(resourceLocations(findResourceClasses(api), api), ['src/api/book.ts'], 'src/api holds a router too: only the Resource module is imported');
  const root = [{ path: 'app.js', code: "const { Resource } = require('mural');\nclass A extends Resource {}\n" }];
  t.deepEqual(resourceLocations(findResourceClasses(root), root), ['app.js'], 'never the whole project');
});

test('Resources a function builds are told apart: importing their module cannot reach them, so they are not loaded as classes', (t) => {
  const factory = [
    files[0]!,
    {
      path: 'src/resources/index.ts',
      code: [
        "import { ApplicationResource } from './application-resource.js';",
        'export function defineResources(models) {',
        '  class ShopResource extends ApplicationResource {',
        '    static { this.abstractClass = true; }',
        '  }',
        '  class BookResource extends ShopResource {',
        "    static { this.type = 'books'; }",
        '  }',
        '  return { BookResource, ...authorResources(models, ShopResource) };',
        '}',
        '',
      ].join('\n'),
    },
    {
      path: 'src/resources/author-resource.ts',
      code: "export function authorResources(models, Base) {\n  class AuthorResource extends Base {\n    static { this.model = models.Author; this.attribute('name', 'string'); }\n  }\n  return { AuthorResource };\n}\n",
    },
    { path: 'src/widgets.ts', code: 'export function widgets(Base) {\n  class Widget extends Base {\n    static { this.type = "widgets"; }\n  }\n  return Widget;\n}\n' },
  ];
  t.deepEqual(findResourceClasses(factory).map((c) => c.name), ['ApplicationResource'], 'only the module-level base can be imported');
  t.deepEqual(resourcesBuiltInFunctions(factory), [
    { name: 'BookResource', file: 'src/resources/index.ts' },
    { name: 'AuthorResource', file: 'src/resources/author-resource.ts' },
  ], 'the abstract one is not counted, and a class that declares nothing of a Resource (Widget) is not one');
  t.deepEqual(resourcesBuiltInFunctions(files), [], 'module-level Resources are not built in functions');
});
