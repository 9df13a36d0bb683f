// The real browser of the browser tests (test/heavy/browser.test.ts): Debian's Chromium
// (/usr/bin/chromium, `apt-get install chromium`), driven by playwright-core, with axe-core to
// check accessibility. Both packages live in tools/browser/node_modules (`npm run
// browser:install`), out of the everyday install; the browser is the system's, never downloaded.
//
// Typed here with the little of playwright's API the tests use, so that the project type-checks
// whether or not the tools are installed.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const MODULES = join(import.meta.dirname, 'node_modules');
const PLAYWRIGHT = join(MODULES, 'playwright-core', 'index.mjs');
const AXE = join(MODULES, 'axe-core', 'axe.min.js');
export const CHROMIUM = '/usr/bin/chromium';
export const INSTALL = 'apt-get install -y chromium && npm run browser:install';

/**
 * The flags of a headless Chromium on a machine without network: no GPU, no QUIC, none of the
 * background connections (updates, sync, first run) that would be refused many at a time.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What is missing to run the browser tests, or null when nothing is. */
export function browserToolsMissing(): string | null {
  const missing = [
    existsSync(CHROMIUM) ? '' : `${CHROMIUM} (apt-get install -y chromium)`,
    existsSync(PLAYWRIGHT) ? '' : 'playwright-core (npm run browser:install)',
    existsSync(AXE) ? '' : 'axe-core (npm run browser:install)',
  ].filter((m) => m !== '');
  return missing.length === 0 ? null : missing.join(', ');
}

export interface BrowserResponse {
  status(): number;
  url(): string;
  headers(): Record<string, string>;
}

export interface BrowserRequest {
  url(): string;
  method(): string;
  resourceType(): string;
}

export interface Locator {
  click(): Promise<void>;
  fill(value: string): Promise<void>;
  textContent(): Promise<string | null>;
  count(): Promise<number>;
  first(): Locator;
}

export interface Page {
  goto(url: string): Promise<BrowserResponse | null>;
  goBack(): Promise<BrowserResponse | null>;
  locator(selector: string): Locator;
  getByRole(role: string, options?: { name?: string | RegExp; exact?: boolean }): Locator;
  waitForURL(url: string | RegExp | ((url: URL) => boolean)): Promise<void>;
  waitForResponse(predicate: (response: BrowserResponse) => boolean): Promise<BrowserResponse>;
  url(): string;
  title(): Promise<string>;
  /** Runs a JavaScript expression in the page (a string: the project has no DOM types). */
  evaluate<T>(expression: string): Promise<T>;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  keyboard: { press(key: string): Promise<void> };
  on(event: 'request', listener: (request: BrowserRequest) => void): void;
}

export interface BrowserContext {
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

interface Playwright {
  chromium: {
    launchPersistentContext(
      userDataDir: string,
      options: { executablePath: string; headless: boolean; args: string[]; timeout?: number },
    ): Promise<BrowserContext>;
  };
}

/** Starts Chromium with a fresh profile in `profileDir` (a directory of the test's own). */
export async function launchChromium(profileDir: string): Promise<BrowserContext> {
  const { chromium } = (await import(pathToFileURL(PLAYWRIGHT).href)) as Playwright;
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    timeout: 60_000,
  });
}

/** axe-core's script, to inject into a page. */
export function axeScript(): string {
  return readFileSync(AXE, 'utf8');
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * Runs axe-core on the page (injecting it first) and returns its violations. Injected by the
 * debugging protocol's evaluation, not a script tag: the HTML view's Content-Security-Policy
 * (rightly) refuses every inline script, and is not to be weakened for a test.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate<boolean>("typeof window.axe === 'object'"))) await page.evaluate(`${axeScript()}\n;0`);
  return page.evaluate<AxeViolation[]>(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))",
  );
}
