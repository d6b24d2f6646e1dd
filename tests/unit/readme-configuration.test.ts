import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { settingNames } from "@/lib/config/settings";

/**
 * docs/configuration.md's table (the README's map points there) names every setting the product declares (and only those),
 * so an operator never has to read the code to learn a setting exists. That the product reads
 * no setting outside lib/config/settings.ts is checked in settings.test.ts.
 */

function configurationTableRows(): string[] {
  const readme = fs.readFileSync(path.join(process.cwd(), "docs/configuration.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Configuration"), readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1));
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .flatMap((line) => [...line.split("|")[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
}

describe("docs/configuration.md", () => {
  it("documents every declared setting, and nothing else, in the configuration table", () => {
    const rows = configurationTableRows();
    expect(settingNames().length).toBeGreaterThan(30);
    expect(settingNames().filter((name) => !rows.includes(name))).toEqual([]);
    expect(rows.filter((name) => !(settingNames() as string[]).includes(name))).toEqual([]);
  });
});
