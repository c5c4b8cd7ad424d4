import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import type TypeIs from 'type-is';
import { isPlainJson } from './plain-json';
import { hasBody } from './raw-headers';

/** The parser for each kind of body keel reads. */
export interface BodyParsers {
  readonly json: RequestHandler;
  readonly urlencoded: RequestHandler;
  readonly multipart: RequestHandler;
}

// The bodies keel reads, as full media types: type-is looks a short name ('json') up in the MIME
// table at every call, and its answer is mapped back to the short name `req.is` would give.
const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/*'];

function kindOf(type: string | false | null): string | false | null {
  if (type === 'application/json') return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'urlencoded';
  return typeof type === 'string' ? 'multipart' : type;
}

let typeIs: typeof TypeIs | undefined;

/**
 * The kind of body `req` declares, as Express's `req.is(['json', 'urlencoded', 'multipart'])` gives it: one of the kinds
 * keel reads, false for another type, null for no body. @example bodyKind(req) // 'json'
 */
export function bodyKind(req: IncomingMessage): string | false | null {
  // Asked by the body stage, then by the binding: read once per request.
  const known = (req as KnownKind)[BODY_KIND];
  if (known !== undefined) return known;
  const kind = !hasBody(req.rawHeaders) ? null : isPlainJson(req) ? 'json' : kindByTypeIs(req);
  (req as KnownKind)[BODY_KIND] = kind;
  return kind;
}

function kindByTypeIs(req: IncomingMessage): string | false | null {
  // type-is (and the media type table under it) loads with the first body that is not plain JSON.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous, deferred load
  typeIs ??= require('type-is') as typeof TypeIs;
  return kindOf(typeIs(req, BODY_TYPES));
}

const BODY_KIND = Symbol('keel.bodyKind');

type KnownKind = IncomingMessage & { [BODY_KIND]?: string | false | null };

/**
 * Phase 2 as one middleware, which the dispatcher runs only for requests that carry a body (most
 * requests, GET, HEAD, DELETE, have none; one without is passed on untouched). The content type is
 * read once, here, and only its parser runs (the parsers do not read it again); a form, once
 * parsed, goes on to `afterForm` (the `_method` override). A body of any other type is left
 * unparsed, for `ctx.bind` to refuse with 415. A parser's error ends the stage and goes on to
 * `next`.
 *
 * @example
 * const bodyStage = forRequestsWithBody(createBodyParsers('1mb'), methodOverride);
 */
export function forRequestsWithBody(parsers: BodyParsers, afterForm: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const kind = bodyKind(req);
    if (kind === 'json') {
      void parsers.json(req, res, next);
      return;
    }
    if (kind !== 'urlencoded' && kind !== 'multipart') {
      next();
      return;
    }
    void parsers[kind](req, res, (error?: unknown) => {
      if (error !== undefined) next(error);
      else afterForm(req, res, next);
    });
  };
}
