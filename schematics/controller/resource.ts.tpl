import { Resource, type Context } from 'keel';

@Resource('{{path}}')
export class {{className}} {
  // GET /{{path}}
  index() {
    return { {{collection}}: [] };
  }

  // GET /{{path}}/create
  create() {
    return { {{variable}}: {} };
  }

  // POST /{{path}}
  store(ctx: Context) {
    ctx.redirect(303, '/{{path}}');
  }

  // GET /{{path}}/:id
  show(ctx: Context) {
    return { {{variable}}: { id: ctx.param('id') } };
  }

  // GET /{{path}}/:id/edit
  edit(ctx: Context) {
    return { {{variable}}: { id: ctx.param('id') } };
  }

  // PUT /{{path}}/:id (and PATCH)
  update(ctx: Context) {
    ctx.redirect(303, `/{{path}}/${ctx.param('id')}`);
  }

  // DELETE /{{path}}/:id
  destroy(ctx: Context) {
    ctx.redirect(303, '/{{path}}');
  }
}
