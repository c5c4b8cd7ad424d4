import { describe, expect, test } from '@jest/globals';
import { IsInt, IsString } from 'class-validator';
import {
  ApiResource,
  Controller,
  Get,
  OpenApiModule,
  Post,
  Version,
  type ApplicationOptions,
  type Context,
} from 'keel';
import { useServedApp } from '../factories/app';
import { defineModule } from '../factories/define-module';
import { VALIDATOR_TIMEOUT_MS, validateOpenApi } from '../factories/openapi';

class OrderV1View {
  @IsInt() id!: number;
}

class OrderV2View {
  @IsString() reference!: string;
}

// Both versions show an order, each as its own view.
@Version('1')
@ApiResource('parcels', { only: ['show'], output: OrderV1View })
class ParcelV1Controller {
  show() {
    return { id: 1 };
  }
}

@Version('2')
@ApiResource('parcels', { only: ['show'], output: OrderV2View })
class ParcelV2Controller {
  show() {
    return { reference: 'P-1' };
  }
}

@Version('1')
@Controller('orders')
class OrderV1Controller {
  @Get() list() {
    return [];
  }

  @Post() store(ctx: Context) {
    return { id: Number(ctx.query('id', '1')) };
  }
}

@Version('2')
@Controller('orders')
class OrderV2Controller {
  @Get() list() {
    return { items: [] };
  }
}

@Controller('status')
class StatusController {
  @Get() show() {
    return { status: 'ok' };
  }
}

type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required?: boolean; schema: { enum?: string[] } }[];
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Document = { paths: Record<string, Record<string, Operation>> };

/** Every operation of a document as `METHOD path operationId`. */
function operations(document: Document): string[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(
      ([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`,
    ),
  );
}

function servedWith(versioning: ApplicationOptions['versioning']) {
  const root = defineModule('VersionedApp', {
    imports: [OpenApiModule.forRoot({ title: 'Orders', version: '1.0.0' })],
    controllers: [
      OrderV1Controller,
      OrderV2Controller,
      StatusController,
      ParcelV1Controller,
      ParcelV2Controller,
    ],
  });
  return useServedApp(root, { versioning });
}

async function documentOf(url: string): Promise<Document> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

describe('the OpenAPI document under URI versioning', () => {
  const served = servedWith({ type: 'uri' });

  test(
    "lists every version's operations, each on its own path",
    async () => {
      const document = await documentOf(`${served().url}/openapi.json`);
      expect(operations(document)).toEqual([
        'GET /v1/orders OrderV1Controller.list@1',
        'POST /v1/orders OrderV1Controller.store@1',
        'GET /v2/orders OrderV2Controller.list@2',
        'GET /status StatusController.show',
        'GET /v1/parcels/{id} parcels.show@1',
        'GET /v2/parcels/{id} parcels.show@2',
      ]);
      expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
    },
    VALIDATOR_TIMEOUT_MS,
  );

  test('?version=2 gives version 2 and the unversioned routes; a version nobody serves is 404', async () => {
    const document = await documentOf(`${served().url}/openapi.json?version=2`);
    expect(operations(document)).toEqual([
      'GET /v2/orders OrderV2Controller.list@2',
      'GET /status StatusController.show',
      'GET /v2/parcels/{id} parcels.show@2',
    ]);
    const unknown = await fetch(`${served().url}/openapi.json?version=9`);
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'no route serves API version 9' }]);
  });
});

describe('the OpenAPI document under header versioning', () => {
  const served = servedWith({ type: 'header', header: 'Accept-Version' });

  test(
    'two versions of one path and method are one operation whose version header lists both',
    async () => {
      const document = await documentOf(`${served().url}/openapi.json`);
      expect(operations(document)).toEqual([
        'GET /orders OrderV1Controller.list@1',
        'POST /orders OrderV1Controller.store@1',
        'GET /status StatusController.show',
        'GET /parcels/{id} parcels.show@1',
      ]);
      const list = document.paths['/orders']?.get;
      expect(list?.parameters).toEqual([
        expect.objectContaining({
          name: 'Accept-Version',
          in: 'header',
          required: true,
          schema: { type: 'string', enum: ['1', '2'] },
        }),
      ]);
      // Each version's answer is described: version 1's view, version 2's.
      const shown = document.paths['/parcels/{id}']?.get?.responses['200']?.content?.['application/json'];
      expect(shown).toEqual({
        schema: {
          oneOf: [{ $ref: '#/components/schemas/OrderV1View' }, { $ref: '#/components/schemas/OrderV2View' }],
        },
      });
      expect(document.paths['/orders']?.post?.parameters).toEqual([
        expect.objectContaining({ name: 'Accept-Version', schema: { type: 'string', enum: ['1'] } }),
      ]);
      expect(document.paths['/status']?.get?.parameters).toBeUndefined();
      expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
    },
    VALIDATOR_TIMEOUT_MS,
  );

  test('?version=1 is version 1 alone, as a client of it sees the API', async () => {
    const document = await documentOf(`${served().url}/openapi.json?version=1`);
    expect(operations(document)).toEqual([
      'GET /orders OrderV1Controller.list@1',
      'POST /orders OrderV1Controller.store@1',
      'GET /status StatusController.show',
      'GET /parcels/{id} parcels.show@1',
    ]);
    expect(document.paths['/orders']?.get?.parameters?.[0]?.schema.enum).toEqual(['1']);
    const shown = document.paths['/parcels/{id}']?.get?.responses['200']?.content?.['application/json'];
    expect(shown).toEqual({ schema: { $ref: '#/components/schemas/OrderV1View' } });
  });
});

describe('the OpenAPI document under media type versioning', () => {
  const served = servedWith({ type: 'media', key: 'v', defaultVersion: '2' });

  test(
    "each version's answers are their own media type, application/json;v=N",
    async () => {
      const document = await documentOf(`${served().url}/openapi.json`);
      const shown = document.paths['/parcels/{id}']?.get?.responses['200']?.content;
      expect(shown).toEqual({
        'application/json;v=1': { schema: { $ref: '#/components/schemas/OrderV1View' } },
        'application/json;v=2': { schema: { $ref: '#/components/schemas/OrderV2View' } },
      });
      // Error answers are the same JSON whatever the version.
      const missing = document.paths['/parcels/{id}']?.get?.responses['404']?.content;
      expect(Object.keys(missing ?? {})).toEqual(['application/json']);
      expect(await validateOpenApi(document)).toEqual({ valid: true, errors: null });
    },
    VALIDATOR_TIMEOUT_MS,
  );
});
