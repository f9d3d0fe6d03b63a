// The dashboard (docs/dashboard.md): static files from src/web served at the root, and the chart
// library (uPlot) from node_modules at a fixed path. A fixed list of files, read once at start:
// nothing outside it can be asked for. Public like the documentation page: the files hold no
// data; the page signs in at the token endpoint and reads the API with its own token.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

const WEB_DIR = fileURLToPath(new URL('../../web/', import.meta.url));
const UPLOT_DIR = join(dirname(createRequire(import.meta.url).resolve('uplot')), '..', 'dist');

/** URL under `/dashboard/` -> file and content type. */
const FILES: Record<string, { path: string; type: string }> = {
  'app.js': { path: join(WEB_DIR, 'app.js'), type: 'text/javascript; charset=utf-8' },
  'api.js': { path: join(WEB_DIR, 'api.js'), type: 'text/javascript; charset=utf-8' },
  'live.js': { path: join(WEB_DIR, 'live.js'), type: 'text/javascript; charset=utf-8' },
  'views/common.js': { path: join(WEB_DIR, 'views', 'common.js'), type: 'text/javascript; charset=utf-8' },
  'views/plant.js': { path: join(WEB_DIR, 'views', 'plant.js'), type: 'text/javascript; charset=utf-8' },
  'views/workplace.js': {
    path: join(WEB_DIR, 'views', 'workplace.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'views/order.js': { path: join(WEB_DIR, 'views', 'order.js'), type: 'text/javascript; charset=utf-8' },
  'views/events.js': { path: join(WEB_DIR, 'views', 'events.js'), type: 'text/javascript; charset=utf-8' },
  'views/callbacks.js': {
    path: join(WEB_DIR, 'views', 'callbacks.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'views/connectors.js': {
    path: join(WEB_DIR, 'views', 'connectors.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'dom.js': { path: join(WEB_DIR, 'dom.js'), type: 'text/javascript; charset=utf-8' },
  'sse.js': { path: join(WEB_DIR, 'sse.js'), type: 'text/javascript; charset=utf-8' },
  'style.css': { path: join(WEB_DIR, 'style.css'), type: 'text/css; charset=utf-8' },
  'favicon.svg': { path: join(WEB_DIR, 'favicon.svg'), type: 'image/svg+xml' },
  'vendor/uPlot.esm.js': { path: join(UPLOT_DIR, 'uPlot.esm.js'), type: 'text/javascript; charset=utf-8' },
  'vendor/uPlot.min.css': { path: join(UPLOT_DIR, 'uPlot.min.css'), type: 'text/css; charset=utf-8' },
};

// The page talks only to its own origin; uPlot sets element styles, hence 'unsafe-inline' for style.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

function load(path: string, type: string): Asset {
  const body = readFileSync(path);
  return { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/**
 * Registers `GET {base}/` (the page) and `GET {base}/dashboard/<file>`. Every answer carries an
 * ETag and is revalidated (`no-cache`), so a new version is picked up at the next load without
 * fingerprinted names; a matching If-None-Match is 304.
 */
export function registerDashboard(app: FastifyInstance, basePath: string): void {
  const index = load(join(WEB_DIR, 'index.html'), 'text/html; charset=utf-8');
  const assets = new Map(Object.entries(FILES).map(([name, file]) => [name, load(file.path, file.type)]));
  const send = (request: FastifyRequest, reply: FastifyReply, asset: Asset) => {
    reply
      .header('cache-control', 'no-cache')
      .header('etag', asset.etag)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', CSP)
      .header('referrer-policy', 'no-referrer');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  };
  const options = {
    config: { auth: 'public' },
    schema: { hide: true, querystring: Type.Object({}, { additionalProperties: false }) },
  } as const;
  app.get(`${basePath}/`, options, async (request, reply) => {
    // Under a base path the page must be asked for with its trailing slash, so that its
    // relative links (dashboard/app.js, api/v2/..., oauth/token) resolve below the base path.
    const path = request.url.split('?')[0] ?? '/';
    if (!path.endsWith('/')) return reply.redirect(`${path}/`, 301);
    return send(request, reply, index);
  });
  for (const [name, asset] of assets) {
    app.get(`${basePath}/dashboard/${name}`, options, async (request, reply) => send(request, reply, asset));
  }
}
