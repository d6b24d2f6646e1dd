import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONSOLE_PAGES } from "@/tests/e2e/support/console-pages";

/**
 * The browser sweep (axe light and dark, 390 px) must open every page of the console: a new
 * page.tsx under app/ without a row in tests/e2e/support/console-pages.ts fails here.
 */

function pageFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pageFiles(full);
    return entry.name === "page.tsx" ? [path.relative(process.cwd(), full).split(path.sep).join("/")] : [];
  });
}

describe("the browser sweep's page list", () => {
  it("names every page file under app/, and only those", () => {
    expect(Object.keys(CONSOLE_PAGES).sort()).toEqual(pageFiles(path.join(process.cwd(), "app")).sort());
  });

  it("gives each page a URL to open, or says why it has none", () => {
    const ids = { org: "o", workspace: "w", connector: "c", server: "s", role: "r", skill: "k" };
    const missing = Object.entries(CONSOLE_PAGES).filter(([, p]) => p.urls(ids).length === 0 && !p.none).map(([file]) => file);
    expect(missing).toEqual([]);
  });
});
