import type { Page } from "playwright-core";
import { screenshot, seriousA11yViolations } from "@/tests/e2e/support/browser";

/**
 * The console's page checks, one implementation for every browser test: axe in light and in
 * dark, and at 390 px wide no sideways scroll and no cut navigation label. Each check saves a
 * screenshot as a test artifact (test-results/e2e/<prefix>-<scheme or 390>-<name>.png) and
 * answers the problems it found (nothing: the page passed), so a sweep reports every page at once.
 */

export type Scheme = "light" | "dark";

/** Opens `path` and waits for its heading and quiet network; a message when the page did not load. */
export async function openPage(page: Page, path: string): Promise<string | null> {
  const response = await page.goto(path);
  if (!response || response.status() >= 400) return `HTTP ${response?.status()}`;
  const loaded = await page.locator("main h1, h1").first().waitFor().then(() => true, () => false);
  if (!loaded) return `no heading: ${(await page.locator("body").innerText()).slice(0, 200)}`;
  await page.waitForLoadState("networkidle");
  return null;
}

/** Shows the open page in `scheme` (the app follows the system's) and waits until it has switched. */
export async function showScheme(page: Page, scheme: Scheme): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((dark) => document.documentElement.classList.contains("dark") === dark, scheme === "dark");
}

/** axe on the open page as it is shown now; the screenshot is `<shot>.png`. */
export async function axeProblems(page: Page, shot: string): Promise<unknown[]> {
  const violations = await seriousA11yViolations(page);
  await screenshot(page, shot);
  return violations;
}

/** At the page's current width: how far it scrolls sideways, and the navigation labels cut short. */
export async function narrowProblems(page: Page, shot: string): Promise<Record<string, unknown> | null> {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const cut = [...document.querySelectorAll('nav[aria-label="Main"] a')]
      .filter((a) => a.scrollWidth > a.clientWidth + 1 || a.getBoundingClientRect().right > width + 1)
      .map((a) => a.textContent);
    return { scrollWidth: document.documentElement.scrollWidth, width, cut };
  });
  await screenshot(page, shot);
  return found.scrollWidth > found.width || found.cut.length > 0 ? found : null;
}

export interface SweepOptions {
  /** Screenshot names start with it (`acceptance`, `console`…). */
  prefix: string;
  /** A path as a file name (ids replaced by what they are). */
  name: (path: string) => string;
}

/** axe over every path in light and in dark: the problems by path (and scheme). */
export async function sweepAxe(page: Page, paths: string[], opts: SweepOptions): Promise<Record<string, unknown>> {
  const problems: Record<string, unknown> = {};
  for (const path of paths) {
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const failed = await openPage(page, path);
      if (failed) {
        problems[path] = failed;
        break;
      }
      await showScheme(page, scheme);
      const violations = await axeProblems(page, `${opts.prefix}-${scheme}-${opts.name(path)}`);
      if (violations.length) problems[`${path} (${scheme})`] = violations;
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

/** Every path at 390 px wide (the page's context must have that viewport): the problems by path. */
export async function sweepNarrow(page: Page, paths: string[], opts: SweepOptions): Promise<Record<string, unknown>> {
  const problems: Record<string, unknown> = {};
  for (const path of paths) {
    const failed = await openPage(page, path);
    if (failed) {
      problems[path] = failed;
      continue;
    }
    const found = await narrowProblems(page, `${opts.prefix}-390-${opts.name(path)}`);
    if (found) problems[path] = found;
  }
  return problems;
}

/** A path as a screenshot name: each seeded id replaced by what it is (`orgs-org-connectors-connector-tools`). */
export function pathName(ids: Record<string, string>): (path: string) => string {
  return (path) => {
    const plain = Object.entries(ids)
      .filter(([, id]) => id)
      .reduce((p, [what, id]) => p.split(id).join(what), path);
    return plain.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "overview";
  };
}
