import { Resource, type Context } from 'keel';

@Resource('{{path}}')
export class {{className}} {
  // GET /{{path}}
  index() {
    return { {{collection}}: [] };
  }

  // GET /{{path}}/create: the form, from views/{{path}}/create.html
  create(ctx: Context) {
    ctx.html(200, '{{path}}/create.html', { {{variable}}: {} });
  }

  // POST /{{path}}
  store(ctx: Context) {
    ctx.redirect(303, '/{{path}}');
  }

  // GET /{{path}}/:id
  show(ctx: Context) {
    return { {{variable}}: { id: ctx.param('id') } };
  }

  // GET /{{path}}/:id/edit: the form, from views/{{path}}/edit.html
  edit(ctx: Context) {
    ctx.html(200, '{{path}}/edit.html', { {{variable}}: { id: ctx.param('id') } });
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
