import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * No module of lib/ imports itself back through others at run time, so each one can be
 * loaded alone (a cycle makes one side see the other's exports undefined, depending on
 * which was imported first). Type-only imports are erased and do not count, nor do
 * dynamic `import()`s, which run after both modules have loaded.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith(".d.ts"))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith("lib/generated/"));
}

/** The specifiers a file loads at run time: `import type`, and braces of `type` names only, are erased. */
function runtimeSpecifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']/gm)) {
    const [, typeOnly, clause, specifier] = m;
    if (typeOnly) continue;
    const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
    const names = braces ? braces[1].split(",").map((n) => n.trim()).filter(Boolean) : null;
    if (names && names.length > 0 && names.every((n) => n.startsWith("type "))) continue;
    found.push(specifier);
  }
  for (const m of text.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) found.push(m[1]);
  return found;
}

function resolve(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, from)), specifier));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) {
    if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  }
  return null;
}

/** Every cycle of the graph, each once, as the files around it. */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        const key = [...cycle].sort().join(" ");
        if (seen.has(key)) continue;
        seen.add(key);
        cycles.push([...cycle, next]);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    const targets = runtimeSpecifiers(text).map((s) => resolve(file, s)).filter((t): t is string => !!t && t.startsWith(`${dir}/`));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

describe("import cycles", () => {
  it("finds a cycle where there is one, and reads type-only imports as erased", () => {
    expect(findCycles(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]))).toEqual([["a", "b", "c", "a"]]);
    expect(runtimeSpecifiers('import type { A } from "x";\nimport { type B, type C } from "y";\nimport { type D, e } from "z";\nexport { f } from "w";\nimport "v";')).toEqual(["z", "w", "v"]);
  });

  it("no module of lib/ loads itself back at run time", () => {
    expect(findCycles(importGraph("lib")).map((c) => c.join(" → "))).toEqual([]);
  });
});
