import test from 'ava';
import { fileURLToPath } from 'node:url';
import { Resource } from '../../../core/index.ts';
import { siteOf } from '../../../core/resource/declaration-sites.ts';

const FILE = fileURLToPath(import.meta.url);

class BaseResource extends Resource {
  static {
    this.abstractClass = true;
    this.attribute('created_at', 'datetime');
  }
}
class BookResource extends BaseResource {
  static {
    this.model = class Book {};
    this.attribute('title', 'string');
    this.filter('isbn', 'string');
    this.belongsTo('author');
  }
}
class NovelResource extends BookResource {}

test('each declaration is located at the application\'s call: file, line and column', (t) => {
  t.deepEqual(siteOf(BookResource, 'model'), { file: FILE, line: 16, column: 10 });
  t.deepEqual(siteOf(BookResource, 'attribute:title'), { file: FILE, line: 17, column: 10 });
  t.deepEqual(siteOf(BookResource, 'filter:isbn'), { file: FILE, line: 18, column: 10 });
  t.deepEqual(siteOf(BookResource, 'relationship:author'), { file: FILE, line: 19, column: 10 });
  t.deepEqual(siteOf(BookResource, 'class'), { file: FILE, line: 16, column: 10 }, 'a class is where its first declaration is');
});

test('an inherited declaration is located where the ancestor made it; Mural\'s own (id) nowhere', (t) => {
  t.deepEqual(siteOf(NovelResource, 'attribute:created_at'), { file: FILE, line: 11, column: 10 });
  t.deepEqual(siteOf(NovelResource, 'attribute:title'), { file: FILE, line: 17, column: 10 });
  t.is(siteOf(NovelResource, 'attribute:id'), undefined);
  t.is(siteOf(NovelResource, 'attribute:nothing'), undefined);
});
