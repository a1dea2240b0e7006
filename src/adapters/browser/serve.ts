/**
 * Serves the guide and the style to Neo4j Browser. The Browser fetches them
 * from its own page (another origin) with `pragma` and `cache-control`
 * headers, so a preflight comes first: both get CORS headers. Read-only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GUIDE_PATH, STYLE_PATH, guideHtml, styleGrass } from './guide.js';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, OPTIONS',
  'access-control-allow-headers': 'pragma, cache-control, content-type, x-ajax-browser-auth, x-stream',
  'access-control-max-age': '600',
};

/** Answers a request for the guide or the style (true), or leaves it to the caller (false). */
export function serveBrowserContent(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  defaultStore: string,
): boolean {
  if (url.pathname !== GUIDE_PATH && url.pathname !== STYLE_PATH) return false;
  if (req.method === 'OPTIONS') {
    res.writeHead(204, CORS).end();
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { ...CORS, allow: 'GET, HEAD, OPTIONS' }).end();
    return true;
  }
  const origin = `http://${req.headers.host ?? url.host}`;
  const body =
    url.pathname === GUIDE_PATH
      ? guideHtml(url.searchParams.get('store')?.trim() || defaultStore, `${origin}${STYLE_PATH}`)
      : styleGrass();
  const type = url.pathname === GUIDE_PATH ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8';
  res.writeHead(200, { ...CORS, 'content-type': type, 'cache-control': 'no-cache' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/** The Browser command and URL that open the guide for a store, for `npm start` to print. */
export function guideCommand(graphqlUrl: string, store: string | null = null): string {
  const base = new URL(GUIDE_PATH, graphqlUrl);
  if (store) base.searchParams.set('store', store);
  return `:guide ${base.href}`;
}
