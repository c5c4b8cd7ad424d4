import {
  AuthModule,
  Can,
  Controller,
  Get,
  Module,
  OpenApiModule,
  Policy,
  Public,
  Put,
  Authenticated,
  jwt,
  type AuthUser,
  type OpenApiDocument,
} from 'keel';
import { bootApp } from '../factories/app';

class Note {
  authorId = '';
}

@Policy(Note)
class NotePolicy {
  update(user: AuthUser, note: Note) {
    return note.authorId === user.id;
  }
}

@Controller('notes')
class NoteController {
  @Get()
  index() {
    return [];
  }

  @Public()
  @Get('count')
  count() {
    return { count: 0 };
  }

  @Authenticated('jwt', 'partner')
  @Get('shared')
  shared() {
    return [];
  }

  @Can('update', Note, { from: 'id' })
  @Put(':id')
  update() {
    return {};
  }
}

const SECRET = 'a-secret-of-at-least-thirty-two-bytes!!';

test('the document lists each strategy as a scheme, and per operation the schemes that open it and its 401/403/404', async () => {
  @Module({
    imports: [
      AuthModule.forRoot({
        default: 'jwt',
        strategies: { jwt: jwt({ secret: SECRET }), partner: jwt({ secret: `${SECRET}-partner` }) },
        user: { useFactory: () => (claims) => ({ id: claims.sub, name: 'n' }) },
      }),
      OpenApiModule.forRoot({ title: 'Notes', version: '1.0.0' }),
    ],
    controllers: [NoteController],
    providers: [NotePolicy],
  })
  class AppModule {}
  const app = await bootApp(AppModule);
  try {
    const { url } = await app.listen(0, '127.0.0.1');
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as OpenApiDocument;
    const bearer = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
    expect(document.components.securitySchemes).toEqual({ jwt: bearer, partner: bearer });
    const op = (path: string, method: string) =>
      document.paths[path]?.[method] as {
        security?: unknown;
        responses: Record<string, unknown>;
      };
    expect(op('/notes', 'get').security).toEqual([{ jwt: [] }]);
    expect(Object.keys(op('/notes', 'get').responses)).toEqual(expect.arrayContaining(['200', '401']));
    expect(op('/notes/count', 'get').security).toBeUndefined();
    expect(Object.keys(op('/notes/count', 'get').responses)).not.toContain('401');
    expect(op('/notes/shared', 'get').security).toEqual([{ jwt: [] }, { partner: [] }]);
    expect(Object.keys(op('/notes/{id}', 'put').responses)).toEqual(
      expect.arrayContaining(['401', '403', '404']),
    );
  } finally {
    await app.close();
  }
});
