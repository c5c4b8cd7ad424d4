import { readFileSync } from 'node:fs';
import path from 'node:path';
import { joinPath } from '../routing/path';
import type { RouteDefinition, RouteHandler } from '../routing/route';

/** Where the documentation page is and what it shows. */
export interface SwaggerUiPage {
  readonly title: string;
  readonly docsPath: string;
  /** The URL of the OpenAPI document the page renders. */
  readonly documentPath: string;
}

// The files of swagger-ui-dist the page loads: served by the application, so the page works on a
// network that reaches no other host.
const PACKAGE_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/**
 * The routes of the Swagger UI page at `docsPath`: the page, its start script (a file, so that a
 * Content-Security-Policy without inline scripts allows it) and swagger-ui-dist's assets, each read
 * from the package on its first request.
 *
 * @example
 * router.add(...swaggerUiRoutes({ title: 'Orders', docsPath: '/docs', documentPath: '/openapi.json' }));
 */
export function swaggerUiRoutes(page: SwaggerUiPage): RouteDefinition[] {
  const { docsPath } = page;
  const route = (file: string, type: string, body: () => Buffer | string): RouteDefinition => ({
    method: 'GET',
    path: file === '' ? docsPath : joinPath(docsPath, file),
    handler: asset(type, body),
    name: file === '' ? 'openapi.docs' : `openapi.docs.${file}`,
    source: 'OpenApiModule (Swagger UI)',
    doc: { hidden: true },
  });
  const starter = `window.ui = SwaggerUIBundle(${JSON.stringify({
    url: page.documentPath,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // Its default sends the document to validator.swagger.io for a badge: another host.
    validatorUrl: null,
  })});\n`;
  return [
    route('', 'text/html; charset=utf-8', () => pageHtml(page)),
    route('swagger-initializer.js', 'text/javascript; charset=utf-8', () => starter),
    ...Object.entries(PACKAGE_FILES).map(([file, type]) => route(file, type, () => packageFile(file))),
  ];
}

function asset(type: string, read: () => Buffer | string): RouteHandler {
  let body: Buffer | undefined;
  return (ctx) => {
    body ??= Buffer.from(read());
    ctx.header('Content-Type', type);
    ctx.header('Cache-Control', 'no-cache');
    ctx.res.status(200).end(body);
  };
}

function pageHtml({ title, docsPath }: SwaggerUiPage): string {
  const file = (name: string) => escapeHtml(joinPath(docsPath, name));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${file('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${file('swagger-ui-bundle.js')}"></script>
<script src="${file('swagger-initializer.js')}"></script>
</body>
</html>
`;
}

function packageFile(file: string): Buffer {
  const root = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  return readFileSync(path.join(root, file));
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}
