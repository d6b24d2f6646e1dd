import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, type Page, chromium } from "playwright-core";

/** Debian's chromium, driven by playwright-core (no browser download on these machines). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

export const ARTIFACTS_DIR = path.join(process.cwd(), "test-results", "e2e");

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
  // Every wait is for a condition, so a long bound costs nothing when things go well; 15 s was
  // not enough for a page or a redirect on a loaded 2-core machine (a consent page seen late).
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(30_000);
  return context;
}

/** Signs in through the real sign-in page and waits for the admin shell. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
}

/** A new context (as newContext) and a page in it, signed in as `email`: where most console tests start. */
export async function signedInPage(browser: Browser, baseURL: string, email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser, baseURL);
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

/** Saves a full-page screenshot as a test artifact (test-results/e2e/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
}

export interface AxeProblem {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** axe-core on the current page (WCAG 2 A/AA rules): the serious and critical violations. */
export async function seriousA11yViolations(page: Page): Promise<AxeProblem[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
}
