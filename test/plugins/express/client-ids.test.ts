import { randomUUID } from 'node:crypto';
import test from 'ava';
import { testDatabases } from '../../support/databases.ts';
import { openBoardApi, type BoardApi } from '../../support/board-api.ts';
import { serve, type HttpClient, type HttpResponse } from '../../support/http.ts';

type ErrorDoc = { errors: Array<{ status: string; code: string; source?: { pointer?: string } }> };
type Doc = { data: { id: string; type: string; attributes: Record<string, unknown> }; included?: Array<{ id: string; type: string; 'temp-id'?: string }> };
type Results = { 'atomic:results': Array<{ data?: { id: string; lid?: string } }> };

const ATOMIC = { 'content-type': 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"' };

/**
 * Issue #34, finding 8: client-generated ids (JSON:API 1.1, "Client-Generated
 * IDs"). A Resource that sets `clientGeneratedIds` takes the id a create
 * names, checked by its id type; one already taken is a 409, also when two
 * creates race for it; a Resource that does not is a 403.
 */
for (const db of testDatabases('client_ids')) {
  let api: BoardApi;
  let client: HttpClient;
  test.before(async () => {
    api = await openBoardApi(db, 'client_ids');
    client = await serve(api.app);
  });
  test.after.always(async () => {
    await client?.close();
    await api?.sequelize.close();
  });
  const errorOf = (response: HttpResponse) => (response.body as ErrorDoc).errors[0]!;
  const counts = async () => [await api.models.Board.count(), await api.models.Card.count(), await api.models.Label.count()];
  const board = (id: string, name = 'Roadmap') => ({ data: { type: 'boards', id, attributes: { name } } });

  test.serial(`${db.name}: a create with the client's id is a 201 with that id, at that Location, and the row has it`, async (t) => {
    const id = randomUUID();
    const response = await client.request('POST', '/api/boards', board(id));
    t.is(response.status, 201, response.text);
    t.is((response.body as Doc).data.id, id);
    t.is(response.headers.get('location'), `/api/boards/${id}`);
    t.is((await api.models.Board.findByPk(id))!.get('name'), 'Roadmap');
    t.is((await client.get(`/api/boards/${id}`)).status, 200);
    const assigned = await client.request('POST', '/api/labels', { data: { type: 'labels', attributes: { text: 'server-assigned' } } });
    t.is(assigned.status, 201, 'without an id, the server still assigns one');
  });

  test.serial(`${db.name}: an id already taken is a 409 id_taken at /data/id, and nothing is written`, async (t) => {
    const id = randomUUID();
    t.is((await client.request('POST', '/api/boards', board(id))).status, 201);
    const before = await counts();
    const again = await client.request('POST', '/api/boards', board(id, 'Other'));
    t.is(again.status, 409);
    t.like(errorOf(again), { code: 'id_taken', source: { pointer: '/data/id' } });
    t.deepEqual(await counts(), before);
    t.is((await api.models.Board.findByPk(id))!.get('name'), 'Roadmap');
  });

  test.serial(`${db.name}: a malformed id is a 400 at /data/id; a Resource that takes no client ids answers 403 client_id_unsupported`, async (t) => {
    const before = await counts();
    for (const id of ['not-a-uuid', '123', '']) {
      const response = await client.request('POST', '/api/boards', board(id));
      t.is(response.status, 400, id);
      t.like(errorOf(response), { source: { pointer: '/data/id' } }, id);
    }
    const refused = await client.request('POST', '/api/labels', { data: { type: 'labels', id: '7', attributes: { text: 'x' } } });
    t.is(refused.status, 403);
    t.like(errorOf(refused), { code: 'client_id_unsupported', source: { pointer: '/data/id' } });
    t.deepEqual(await counts(), before);
  });

  test.serial(`${db.name}: sideposted creates name their records by client id (or temp-id), and a taken one is a 409 at its identifier`, async (t) => {
    const [boardId, cardId] = [randomUUID(), randomUUID()];
    const response = await client.request('POST', '/api/boards', {
      data: { type: 'boards', id: boardId, attributes: { name: 'Sprint' }, relationships: { cards: { data: [{ type: 'cards', id: cardId, method: 'create' }] } } },
      included: [{ type: 'cards', id: cardId, attributes: { title: 'Ship it' }, relationships: { labels: { data: [{ type: 'labels', 'temp-id': 'l1', method: 'create' }] } } }, { type: 'labels', 'temp-id': 'l1', attributes: { text: 'urgent' } }],
    });
    t.is(response.status, 201, response.text);
    t.is((await api.models.Card.findByPk(cardId))!.get('board_id'), boardId);
    t.truthy((response.body as Doc).included!.find((record) => record.type === 'cards' && record.id === cardId));
    const before = await counts();
    const taken = await client.request('POST', '/api/boards', {
      data: { type: 'boards', id: randomUUID(), attributes: { name: 'Again' }, relationships: { cards: { data: [{ type: 'cards', id: cardId, method: 'create' }] } } },
      included: [{ type: 'cards', id: cardId, attributes: { title: 'Twice' } }],
    });
    t.is(taken.status, 409);
    t.like(errorOf(taken), { code: 'id_taken', source: { pointer: '/data/relationships/cards/data/0/id' } });
    const unsupported = await client.request('POST', '/api/cards', {
      data: { type: 'cards', id: randomUUID(), attributes: { title: 'T' }, relationships: { labels: { data: [{ type: 'labels', id: '9', method: 'create' }] } } },
      included: [{ type: 'labels', id: '9', attributes: { text: 'x' } }],
    });
    t.is(unsupported.status, 403);
    t.like(errorOf(unsupported), { code: 'client_id_unsupported', source: { pointer: '/data/relationships/labels/data/0/id' } });
    t.deepEqual(await counts(), before);
  });

  test.serial(`${db.name}: atomic add takes data.id, later operations name the record by it or by its lid, and a taken id is a 409 under its operation`, async (t) => {
    const [boardId, cardId] = [randomUUID(), randomUUID()];
    const response = await client.request('POST', '/api/operations', {
      'atomic:operations': [
        { op: 'add', data: { type: 'boards', id: boardId, attributes: { name: 'Ops' } } },
        { op: 'add', data: { type: 'cards', lid: 'c', attributes: { title: 'By lid' }, relationships: { board: { data: { type: 'boards', id: boardId } } } } },
        { op: 'add', data: { type: 'cards', id: cardId, attributes: { title: 'By id' }, relationships: { board: { data: { type: 'boards', id: boardId } } } } },
        { op: 'update', ref: { type: 'cards', lid: 'c' }, data: { type: 'cards', attributes: { title: 'Renamed' } } },
      ],
    }, ATOMIC);
    t.is(response.status, 200, response.text);
    const results = (response.body as Results)['atomic:results'];
    t.is(results[0]!.data!.id, boardId);
    t.is(results[2]!.data!.id, cardId);
    t.is((await api.models.Card.findByPk(results[1]!.data!.id))!.get('title'), 'Renamed');
    const before = await counts();
    const taken = await client.request('POST', '/api/operations', {
      'atomic:operations': [{ op: 'add', data: { type: 'boards', id: randomUUID(), attributes: { name: 'New' } } }, { op: 'add', data: { type: 'cards', id: cardId, attributes: { title: 'Dup' } } }],
    }, ATOMIC);
    t.is(taken.status, 409);
    t.like(errorOf(taken), { code: 'id_taken', source: { pointer: '/atomic:operations/1/data/id' } });
    const unsupported = await client.request('POST', '/api/operations', { 'atomic:operations': [{ op: 'add', data: { type: 'labels', id: '5', attributes: { text: 'x' } } }] }, ATOMIC);
    t.like(errorOf(unsupported), { status: '403', code: 'client_id_unsupported', source: { pointer: '/atomic:operations/0/data/id' } });
    t.deepEqual(await counts(), before, 'the first operation is undone with the second');
  });

  test.serial(`${db.name}: concurrent creates of one id: exactly one 201, every other a 409, never a 500`, async (t) => {
    for (let round = 0; round < 3; round++) {
      const id = randomUUID();
      const responses = await Promise.all(Array.from({ length: 6 }, (_, i) => client.request('POST', '/api/boards', board(id, `Racer ${i}`))));
      const statuses = responses.map((response) => response.status).sort();
      t.deepEqual(statuses, [201, 409, 409, 409, 409, 409], responses.map((r) => r.text).join('\n'));
      for (const response of responses.filter((r) => r.status === 409)) t.like(errorOf(response), { code: 'id_taken', source: { pointer: '/data/id' } });
      t.is(await api.models.Board.count({ where: { id } }), 1);
    }
  });
}
