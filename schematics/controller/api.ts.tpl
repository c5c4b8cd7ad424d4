import { ApiResource, type Context } from 'keel';

@ApiResource('{{path}}')
export class {{className}} {
  // GET /{{path}}
  index() {
    return { {{collection}}: [] };
  }

  // POST /{{path}}
  store(ctx: Context) {
    ctx.json(201, { {{variable}}: {} });
  }

  // GET /{{path}}/:id
  show(ctx: Context) {
    return { {{variable}}: { id: ctx.param('id') } };
  }

  // PUT /{{path}}/:id (and PATCH)
  update(ctx: Context) {
    return { {{variable}}: { id: ctx.param('id') } };
  }

  // DELETE /{{path}}/:id
  destroy(ctx: Context) {
    ctx.noContent();
  }
}
