/**
 * What a person sees: headless Chromium (Debian's, driven by puppeteer-core)
 * opens Neo4j Browser, connects, opens the project's guide with `:guide`,
 * applies the guide's style and runs the guide's first query. The test reads
 * the rendered graph (SVG nodes with their labels' classes, relationships
 * with their captions), not the connect form, and keeps the screenshot as
 * docs/browser.png. The credentials the app signs in with (the local server's
 * generated password, or NEO4J_USER / NEO4J_PASSWORD) are typed into the
 * connect form when the server asks for them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { guideCommand, GUIDE_PATH, STYLE_PATH } from '../../src/adapters/browser/testing.js';
import { randomStore, startTestApp, type TestApp } from '../helpers.js';
import { eventually } from '../background.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SCREENSHOT = join(ROOT, 'docs', 'browser.png');

/** The Browser of the Neo4j the tests use: NEO4J_BROWSER_URL, else the local server's HTTP port. */
function browserUrl(): string {
  if (process.env.NEO4J_BROWSER_URL) return process.env.NEO4J_BROWSER_URL;
  const bolt = new URL(t.config.neo4j.uri.replace(/^\w+:/, 'http:'));
  return `http://${bolt.hostname}:${process.env.TOTAL_RECALL_NEO4J_HTTP_PORT ?? '7474'}/browser/`;
}

/**
 * The test server's URL under a host the Browser may fetch from: 127.0.0.1 on a
 * Neo4j the project configured (scripts/services/neo4j.mjs), else localhost
 * (Neo4j's default list), so an older server still shows the guide.
 */
async function allowedServerUrl(): Promise<string> {
  const rows = await t.cypher<{ value: string }>(
    "CALL dbms.clientConfig() YIELD name, value WHERE name = 'browser.remote_content_hostname_whitelist' RETURN value",
  );
  const hosts = (rows[0]?.value ?? 'guides.neo4j.com,localhost').split(',').map((h) => h.trim());
  const url = new URL(t.server.url);
  if (!hosts.includes(url.hostname)) {
    console.log(
      `browser check: this Neo4j does not allow ${url.hostname} (restart it with the project's ` +
        `settings); using localhost`,
    );
    url.hostname = 'localhost';
  }
  return url.href;
}

async function chromiumPath(): Promise<string> {
  const module = '../../scripts/services/chromium.mjs';
  const { ensureChromium } = (await import(module)) as {
    ensureChromium: (o?: { log?: (m: string) => void }) => Promise<string>;
  };
  return ensureChromium({ log: (m) => console.log(m) });
}

let t: TestApp;
let browser: Browser;
let page: Page;
const store = randomStore('browser');

const remember = async (content: string, extra: Record<string, unknown> = {}) =>
  (
    await t.ok<{ store: { id: string } }>('mutation ($in: StoreInput!) { store(input: $in) { id } }', {
      in: { store, content, ...extra },
    })
  ).store.id;
const associate = (a: string, b: string, type: string, strength: number) =>
  t.ok('mutation ($in: AssociateInput!) { associate(input: $in) { type } }', { in: { a, b, type, strength } });

beforeAll(async () => {
  t = await startTestApp();
  const core = await remember('I keep my promises, even the small ones.', { tier: 'IDENTITY_CORE', people: ['Ana'] });
  const plan = await remember('Promised Ana to review her thesis draft by Friday.', {
    tier: 'ACTIVE_CONTEXT',
    people: ['Ana'],
  });
  const review = await remember('Reviewed the thesis draft: chapter three needs a clearer method section.', {
    people: ['Ana'],
    tags: ['thesis'],
  });
  const lisbon = await remember('We spent two weeks in Lisbon in May, eating pastel de nata.', { tags: ['travel'] });
  const old = await remember('An old note about the bicycle shop in Porto that closed.', {
    tier: 'ARCHIVE',
    tags: ['travel'],
  });
  await associate(plan, review, 'CAUSAL', 0.8);
  await associate(core, plan, 'CAUSAL', 0.7);
  await associate(lisbon, old, 'THEMATIC', 0.4);
  await associate(review, core, 'PERSON', 0.55);
  await t.app.bus.idle();
  browser = await puppeteer.launch({
    executablePath: await chromiumPath(),
    headless: true,
    // Root in a container has no user namespace for Chromium's sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--window-size=1400,900'],
    defaultViewport: { width: 1400, height: 900 },
  });
  page = await browser.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.dropStore(store);
  await t?.stop();
});

describe('the guide and the style over HTTP', () => {
  it(
    'serves the guide (one runnable query per slide, this store) and the style to another ' +
      'origin, preflight included',
    async () => {
      const base = new URL(t.server.url);
      const preflight = await fetch(new URL(GUIDE_PATH, base), {
        method: 'OPTIONS',
        headers: { origin: 'http://127.0.0.1:7474', 'access-control-request-headers': 'pragma,cache-control' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/pragma/);
      const guide = await fetch(new URL(`${GUIDE_PATH}?store=${encodeURIComponent(store)}`, base));
      expect(guide.status).toBe(200);
      const html = await guide.text();
      expect(html.match(/<slide/g)).toHaveLength(8);
      expect(html.match(/<pre class="code runnable"/g)).toHaveLength(8);
      expect(html).toContain(`WITH &quot;${store}&quot; AS store`);
      expect(html).toContain(`data-exec="style http://${base.host}${STYLE_PATH}"`);
      const style = await (await fetch(new URL(STYLE_PATH, base))).text();
      for (const rule of [
        'node.IDENTITY_CORE',
        'node.ACTIVE_CONTEXT',
        'node.LONG_TERM',
        'node.ARCHIVE',
        'node.Event',
        'relationship.CAUSAL',
      ])
        expect(style).toContain(rule);
      expect(style).toContain('caption: "{content}"');
      expect(style).toContain('caption: "CAUSAL {strength}"');
    },
  );
});

describe('Neo4j Browser', () => {
  it('connects, opens the guide, applies its style, runs its first query and renders memories by ' +
    'tier with typed links', {
    timeout: 180_000,
  }, async () => {
    // The connect form comes prefilled with the test's server, signing in as the app does (the
    // local server's generated password, or NEO4J_USER / NEO4J_PASSWORD of an external one).
    const { uri, user, password } = t.config.neo4j;
    const open = new URL(browserUrl());
    open.searchParams.set('dbms', uri);
    // The Browser's names for the form's choices (Browser 5.24): NATIVE is "Username / Password".
    open.searchParams.set('preselectAuthMethod', password ? 'NATIVE' : 'NO_AUTH');
    await page.goto(open.href, { waitUntil: 'networkidle2', timeout: 60_000 });
    await page.waitForSelector('#monaco-main-editor', { timeout: 60_000 });
    // The Browser connects by itself when it can; else the form is filled in.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (await page.$('button[data-testid="connect"]')) await connectWithCredentials(page, user, password);
    await eventually(async () => ((await page.$('button[data-testid="connect"]')) === null ? true : undefined), 30_000);
    // The guide opens in the sidebar: its first slide has the style button and the first query.
    // Right after connecting the Browser may not have read the server's allowlist yet: then it says
    // the host is not allowed, and the command is run again.
    // Connected: without authentication "You have a working connection", with it "You are connected as user …".
    await page.waitForFunction(
      () => /You have a working connection|You are connected as user/.test(document.body.textContent),
      { timeout: 60_000 },
    );
    const guideServer = await allowedServerUrl();
    await eventually(
      async () => {
        await runCommand(page, guideCommand(guideServer, store));
        return page.waitForSelector('[data-exec^="style "]', { timeout: 5_000 }).then(
          () => true,
          () => undefined,
        );
      },
      60_000,
      1000,
    );
    await page.click('[data-exec^="style "]');
    await page.waitForFunction(
      () =>
        document.body.textContent.includes('node.IDENTITY_CORE') || document.body.textContent.includes('IDENTITY_CORE'),
      { timeout: 30_000 },
    );
    await page.click('pre.runnable');
    await runEditor(page);
    // The graph: memory nodes (one class per label) and captioned typed relationships.
    await page.waitForSelector('svg .node', { timeout: 60_000 });
    await eventually(async () => {
      const rendered = await renderedGraph(page);
      return rendered.nodes >= 5 && rendered.relationships.some((c) => c.startsWith('CAUSAL')) ? rendered : undefined;
    }, 30_000);
    // For the picture: no telemetry banner, no overview panel over the graph, the layout settled.
    await page.evaluate(() => {
      const click = (e: Element | null | undefined) => (e as HTMLElement | null | undefined)?.click();
      // Every frame but the query's (the newest, on top), the overview panel, the telemetry banner.
      [...document.querySelectorAll('[data-testid="frame"]')]
        .slice(1)
        .forEach((f) => click(f.querySelector('[title="Close"]')));
      click(document.querySelector('[aria-label="Collapse the node properties display"]'));
      const banner = [...document.querySelectorAll('div')].find(
        (d) => d.children.length > 0 && (d.textContent ?? '').startsWith('To help make Neo4j Browser better'),
      );
      click(banner?.querySelector('button, [class*="close" i], svg')?.closest('button, span, div'));
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await page.click('[aria-label="zoom-to-fit"]').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const rendered = await renderedGraph(page);
    expect(rendered.connectForm).toBe(false);
    expect(rendered.nodes).toBeGreaterThanOrEqual(5);
    expect(rendered.captions.some((c) => c.includes('I keep my promises'))).toBe(true);
    expect(rendered.relationships).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^CAUSAL 0\.8/),
        expect.stringMatching(/^PERSON 0\.55/),
        expect.stringMatching(/^THEMATIC 0\.4/),
      ]),
    );
    // Tiers in distinct colours: one fill per tier (the two LONG_TERM memories share theirs).
    const fill = (start: string) =>
      Object.entries(rendered.fillByCaption).find(([caption]) => caption.startsWith(start))?.[1];
    const byTier = {
      IDENTITY_CORE: fill('I keep my'),
      ACTIVE_CONTEXT: fill('Promised Ana'),
      LONG_TERM: fill('Reviewed the'),
      ARCHIVE: fill('An old note'),
    };
    expect(Object.values(byTier).every((f) => typeof f === 'string' && f !== '')).toBe(true);
    expect(new Set(Object.values(byTier)).size).toBe(4);
    expect(fill('We spent two')).toBe(byTier.LONG_TERM);
    mkdirSync(join(ROOT, 'docs'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT as `${string}.png` });
  });
});

async function connectWithCredentials(p: Page, user: string, password: string): Promise<void> {
  const username = await p.$('input[data-testid="username"]');
  if (password && username) {
    await username.click({ clickCount: 3 });
    await username.type(user);
    const pass = await p.$('input[data-testid="password"]');
    await pass?.type(password);
  }
  await p.click('button[data-testid="connect"]');
}

/** Types a command into the Browser's editor and runs it. */
async function runCommand(p: Page, command: string): Promise<void> {
  await p.click('#monaco-main-editor');
  // Whatever a failed run left in the editor goes first.
  await p.keyboard.down('Control');
  await p.keyboard.press('KeyA');
  await p.keyboard.up('Control');
  await p.keyboard.press('Backspace');
  await p.keyboard.type(command);
  await runEditor(p);
}

async function runEditor(p: Page): Promise<void> {
  await p.click('[data-testid="editor-Run"]');
}

async function renderedGraph(p: Page) {
  return p.evaluate(() => {
    const nodes = [...document.querySelectorAll('svg g.node')];
    const captionOf = (n: Element) =>
      [...n.querySelectorAll('text')]
        .map((x) => x.textContent ?? '')
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim();
    const fillByCaption: Record<string, string> = {};
    for (const n of nodes) {
      const fills = [...n.querySelectorAll('circle')]
        .map((c) => getComputedStyle(c).fill)
        .filter((f) => f && f !== 'none' && !f.includes('rgba(0, 0, 0, 0)'));
      fillByCaption[captionOf(n)] = fills[0] ?? '';
    }
    return {
      connectForm: document.querySelector('input[data-testid="boltaddress"]') !== null,
      nodes: nodes.length,
      captions: nodes.map(captionOf),
      fillByCaption,
      relationships: [...document.querySelectorAll('svg g.relationship text')].map((x) => x.textContent ?? ''),
    };
  });
}
