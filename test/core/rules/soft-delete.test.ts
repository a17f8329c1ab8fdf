import test from 'ava';
import express from 'express';
import { DataTypes, type Model, type ModelStatic, type Sequelize } from 'sequelize';
import { Resource, type JsonApiDocument, type ResourceObject } from '../../../core/index.ts';
import { muralRouter } from '../../../plugins/express/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';
import { openDatabase, testDatabases } from '../../support/databases.ts';
import { serve, type HttpClient } from '../../support/http.ts';

/**
 * `softDelete(column)`: a DELETE moves a record to the trash, every path
 * reads trashed records as missing, `filter[trashed]` (guarded) looks into
 * the trash, a PATCH there restores, and a DELETE there purges for those
 * allowed.
 */
function defineApi(models: Record<'Post' | 'Comment', ModelStatic<Model>>) {
  class Base extends Resource {
    static {
      this.abstractClass = true;
      this.adapter = SequelizeAdapter;
      this.endpointNamespace = '/s';
    }
    isEditor() {
      return this.context?.role === 'editor' || this.context?.role === 'admin';
    }
    isAdmin() {
      return this.context?.role === 'admin';
    }
  }
  class PostResource extends Base {
    static {
      this.model = models.Post;
      this.type = 'posts';
      this.attribute('title', 'string');
      this.attribute('deleted_at', 'datetime', { writable: 'isEditor' });
      this.hasMany('comments', { resource: () => CommentResource });
      this.softDelete('deleted_at', { trashed: 'isEditor', purge: 'isAdmin' });
    }
  }
  class CommentResource extends Base {
    static {
      this.model = models.Comment;
      this.type = 'comments';
      this.attribute('body', 'string');
      this.attribute('post_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.belongsTo('post', { resource: () => PostResource });
    }
  }
  return { PostResource, CommentResource };
}

const ids = (body: unknown) => [(body as JsonApiDocument).data].flat().map((record) => (record as ResourceObject).id);
const role = (name: string) => ({ 'X-Role': name });

for (const db of testDatabases('soft_delete')) {
  let sequelize: Sequelize;
  let models: Record<'Post' | 'Comment', ModelStatic<Model>>;
  let http: HttpClient;
  test.before(async () => {
    sequelize = await openDatabase(db, 'soft_delete');
    const id = { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true };
    models = {
      Post: sequelize.define('Post', { id, title: DataTypes.STRING, deleted_at: DataTypes.DATE }, { tableName: 'posts', timestamps: false }),
      Comment: sequelize.define('Comment', { id, body: DataTypes.STRING, post_id: DataTypes.INTEGER }, { tableName: 'comments', timestamps: false }),
    };
    const app = express();
    app.use(muralRouter({ resources: Object.values(defineApi(models)), context: (req) => ({ role: req.header('X-Role') }), explorer: false }));
    http = await serve(app);
  });
  test.beforeEach(async () => {
    await sequelize.sync({ force: true });
    await models.Post.bulkCreate([{ title: 'First' }, { title: 'Second' }, { title: 'Gone', deleted_at: new Date('2026-01-01T00:00:00Z') }]);
    await models.Comment.bulkCreate([{ body: 'on first', post_id: 1 }, { body: 'on gone', post_id: 3 }]);
  });
  test.after.always(async () => {
    await http?.close();
    await sequelize?.close();
  });

  test.serial(`${db.name}: a trashed record is missing on every read path`, async (t) => {
    t.deepEqual(ids((await http.get('/s/posts?sort=id')).body), ['1', '2']);
    t.is((await http.get('/s/posts/3')).status, 404);
    const { body } = await http.get('/s/comments?sort=id&include=post');
    t.deepEqual(((body as JsonApiDocument).included ?? []).map((record) => record.id), ['1']);
    const onGone = [(body as JsonApiDocument).data].flat()[1] as ResourceObject;
    t.is((onGone.relationships!.post as { data: unknown }).data, null);
    t.deepEqual(ids((await http.get('/s/comments?filter[has][post.title]=Gone')).body), []);
    t.is(((await http.get('/s/comments/2/post')).body as JsonApiDocument).data, null);
    t.like((await http.get('/s/posts?stats[total]=count')).body as object, { meta: { stats: { total: { count: 2 } } } });
  });

  test.serial(`${db.name}: DELETE moves a record to the trash, links and all; filter[trashed] looks into it, for those allowed`, async (t) => {
    t.is((await http.request('DELETE', '/s/posts/1')).status, 200);
    const [row] = (await sequelize.query('SELECT deleted_at FROM posts WHERE id = 1'))[0] as Array<{ deleted_at: unknown }>;
    t.truthy(row?.deleted_at, 'the row is still there, marked');
    t.is((await models.Comment.findByPk(1))!.get('post_id'), 1);
    t.deepEqual(ids((await http.get('/s/posts?sort=id')).body), ['2']);
    t.deepEqual(ids((await http.get('/s/posts?sort=id&filter[trashed]=only', role('editor'))).body), ['1', '3']);
    t.deepEqual(ids((await http.get('/s/posts?sort=id&filter[trashed]=with', role('editor'))).body), ['1', '2', '3']);
    const refused = await http.get('/s/posts?filter[trashed]=only');
    t.is(refused.status, 400, 'a guarded filter, as any other');
    t.is((await http.get('/s/posts?filter[trashed]=all', role('editor'))).status, 400);
    t.is((await http.request('DELETE', '/s/posts/3')).status, 404, 'a trashed record is not trashed again');
  });

  test.serial(`${db.name}: linking to a trashed record is linking to a missing one`, async (t) => {
    const write = await http.request('POST', '/s/comments', { data: { type: 'comments', attributes: { body: 'late' }, relationships: { post: { data: { type: 'posts', id: '3' } } } } });
    t.is(write.status, 404, write.text);
    t.is(await models.Comment.count(), 2);
  });

  test.serial(`${db.name}: a PATCH into the trash restores; a DELETE there purges, for those the purge guard allows`, async (t) => {
    const restore = (who: string) => http.request('PATCH', '/s/posts/3?filter[trashed]=only', { data: { type: 'posts', id: '3', attributes: { deleted_at: null } } }, role(who));
    t.is((await http.request('PATCH', '/s/posts/3', { data: { type: 'posts', id: '3', attributes: { deleted_at: null } } }, role('editor'))).status, 404);
    const restored = await restore('editor');
    t.is(restored.status, 200, restored.text);
    t.is(((restored.body as JsonApiDocument).data as ResourceObject).attributes!.deleted_at, null);
    t.deepEqual(ids((await http.get('/s/posts?sort=id')).body), ['1', '2', '3']);
    await http.request('DELETE', '/s/posts/2');
    const purge = (who: string) => http.request('DELETE', '/s/posts/2?filter[trashed]=only', undefined, role(who));
    const editor = await purge('editor');
    t.is(editor.status, 403, editor.text);
    t.is(await models.Post.count(), 3);
    t.is((await purge('admin')).status, 200);
    t.is(await models.Post.count(), 2, 'gone for good');
    t.is((await http.request('DELETE', '/s/posts/1?filter[trashed]=only', undefined, role('admin'))).status, 404, 'a live record is not in the trash');
  });

  test.serial(`${db.name}: in-process, find with filter[trashed] restores and purges too`, async (t) => {
    const { PostResource } = defineApi(models);
    const { withContext } = await import('../../../core/index.ts');
    await withContext({ role: 'admin' }, async () => {
      t.deepEqual(((await PostResource.all({ filter: { trashed: 'only' } }).data) as Array<{ id: number }>).map((post) => post.id), [3]);
      t.true(await PostResource.find({ id: 3, filter: { trashed: 'only' } }).destroy());
    });
    t.is(await models.Post.count(), 2);
  });
}
