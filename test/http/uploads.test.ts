import request from 'supertest';
import type { Application, UploadedFile } from 'keel';
import { bootApp, listenerOf, moduleWith } from '../factories/app';

let app: Application;
let reachedPastLimit = false;

function described(file: UploadedFile) {
  const { fieldName, originalName, mimeType, size } = file;
  return { fieldName, originalName, mimeType, size, text: file.buffer.toString('utf8') };
}

beforeAll(async () => {
  app = await bootApp(moduleWith({}));
  app.router
    .post('/avatars', (ctx) => {
      const avatar = ctx.file('avatar', { maxBytes: 16 });
      reachedPastLimit = true;
      if (!avatar) return ctx.error(422, 'avatar is required');
      ctx.json(201, { ...described(avatar), title: ctx.form('title') });
    })
    .post('/albums', (ctx) => ({ photos: ctx.files('photos', { maxCount: 2 }).map(described) }));
});

beforeEach(() => {
  reachedPastLimit = false;
});

describe('ctx.file and ctx.files', () => {
  test('give the posted file typed, its bytes in memory, beside the form fields', async () => {
    const res = await request(listenerOf(app))
      .post('/avatars')
      .field('title', 'me')
      .attach('avatar', Buffer.from('tiny png'), { filename: 'me.png', contentType: 'image/png' });

    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      fieldName: 'avatar',
      originalName: 'me.png',
      mimeType: 'image/png',
      size: 8,
      text: 'tiny png',
      title: 'me',
    });
  });

  test("a file over the handler's maxBytes is 413 with the usual error body, and the handler goes no further", async () => {
    const res = await request(listenerOf(app))
      .post('/avatars')
      .attach('avatar', Buffer.alloc(17, 1), { filename: 'big.png', contentType: 'image/png' });

    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'the file in "avatar" is larger than 16 bytes' });
    expect(reachedPastLimit).toBe(false);
  });

  test('a file of exactly maxBytes is accepted', async () => {
    const res = await request(listenerOf(app))
      .post('/avatars')
      .attach('avatar', Buffer.alloc(16, 65), { filename: 'edge.png', contentType: 'image/png' });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ size: 16 });
  });

  test('a multipart form without the file gives undefined: the handler answers as it chooses', async () => {
    const res = await request(listenerOf(app)).post('/avatars').field('title', 'no picture');

    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: 'avatar is required' });
  });

  test('a second file where ctx.file expects one is 413', async () => {
    const res = await request(listenerOf(app))
      .post('/avatars')
      .attach('avatar', Buffer.from('one'), 'one.png')
      .attach('avatar', Buffer.from('two'), 'two.png');

    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'too many files in "avatar": at most 1' });
  });

  test('files gives every file of the field, in order, and refuses more than maxCount with 413', async () => {
    const two = await request(listenerOf(app))
      .post('/albums')
      .attach('photos', Buffer.from('a'), { filename: 'a.jpg', contentType: 'image/jpeg' })
      .attach('photos', Buffer.from('b'), { filename: 'b.jpg', contentType: 'image/jpeg' });
    expect(two.status).toBe(201);
    expect((two.body as { photos: { originalName: string }[] }).photos.map((p) => p.originalName)).toEqual([
      'a.jpg',
      'b.jpg',
    ]);

    const three = await request(listenerOf(app))
      .post('/albums')
      .attach('photos', Buffer.from('a'), 'a.jpg')
      .attach('photos', Buffer.from('b'), 'b.jpg')
      .attach('photos', Buffer.from('c'), 'c.jpg');
    expect(three.status).toBe(413);
    expect(three.body).toEqual({ error: 'too many files in "photos": at most 2' });
  });

  test('a request that is not a multipart form (JSON) is 415, saying what was expected', async () => {
    const res = await request(listenerOf(app)).post('/avatars').send({ avatar: 'not a file' });

    expect(res.status).toBe(415);
    expect(res.body).toEqual({ error: 'expected a multipart/form-data body with the file field "avatar"' });
    expect(reachedPastLimit).toBe(false);
  });

  test('a body over the application bodyLimit is 413 before any handler runs', async () => {
    const small = await bootApp(moduleWith({}), { bodyLimit: '1kb' });
    small.router.post('/avatars', (ctx) => {
      reachedPastLimit = true;
      return { size: ctx.file('avatar')?.size };
    });

    const res = await request(listenerOf(small))
      .post('/avatars')
      .attach('avatar', Buffer.alloc(4096, 1), 'large.png');

    expect(res.status).toBe(413);
    expect(res.body).toHaveProperty('error');
    expect(reachedPastLimit).toBe(false);
    await small.close();
  });
});

afterAll(() => app.close());
