import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type SettingName, settingIn, settingNames } from "@/lib/config/settings";

/**
 * Issue 21, point 3: "every test that sets a setting a default install does not have says why in
 * a comment". A test that runs the product in a configuration no user has proves less than it
 * seems; the comment says what the test needs that the default does not give, so a reader can
 * tell which capabilities are proven only under a non-default.
 *
 * A setting is one of `settingNames()` (lib/config/settings.ts). It is set by `vi.stubEnv("X", v)`,
 * by `process.env.X = v` (also `??=`, `||=`, `process.env["X"]`), or by a property `X: v` (or a
 * shorthand `X`) of an object literal: the `env` given to startApp, startAppInstance or spawn, or
 * an object a helper stubs key by key. A literal value that parses to the default ("false" for
 * MCP_STATEFUL_SESSIONS, "" for REDIS_URL) is not a non-default and needs no comment (one is
 * still welcome); any other value, a computed one included, does. The why is a comment on the
 * line or on one of the 3 lines above it.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
/** tests/ and the vitest configurations, which set the environment of every test process. */
const SCANNED = ["tests", "vitest.config.mts", "vitest.unit.config.mts"];
const WINDOW = 3;

/** Files not held to the rule, each with its reason. */
const EXEMPT: Record<string, string> = {
  "tests/unit/settings.test.ts": "tests the settings parser itself: setting values, valid and not, is what it is about",
};

const NAMES = new Set<string>(settingNames());

interface Place {
  line: number;
  name: string;
  commented: boolean;
}

/** The literal text a value sets ("" for `undefined`), or undefined when it is computed. */
function literal(value: ts.Expression | undefined): string | undefined {
  if (!value) return undefined;
  if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) return value.text;
  if (ts.isIdentifier(value) && value.text === "undefined") return "";
  return undefined;
}

function isDefault(name: string, value: ts.Expression | undefined): boolean {
  const raw = literal(value);
  if (raw === undefined) return false;
  try {
    return isDeepStrictEqual(settingIn({ [name]: raw }, name as SettingName), settingIn({}, name as SettingName));
  } catch {
    return false; // not even valid: certainly not the default
  }
}

/** `process.env.X` or `process.env["X"]`: X, else undefined. */
function processEnvName(node: ts.Expression): string | undefined {
  const isProcessEnv = (e: ts.Expression) => ts.isPropertyAccessExpression(e) && e.name.text === "env" && e.expression.getText() === "process";
  if (ts.isPropertyAccessExpression(node) && isProcessEnv(node.expression)) return node.name.text;
  if (ts.isElementAccessExpression(node) && isProcessEnv(node.expression) && ts.isStringLiteral(node.argumentExpression)) return node.argumentExpression.text;
  return undefined;
}

const ASSIGNMENTS = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken]);

/** The setting a node sets and the value it sets it to, or undefined when it sets none. */
function settingSet(node: ts.Node): { name: string; value: ts.Expression | undefined } | undefined {
  if (ts.isCallExpression(node) && node.expression.getText() === "vi.stubEnv") {
    const [name, value] = node.arguments;
    return name && ts.isStringLiteral(name) ? { name: name.text, value } : undefined;
  }
  if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
    const name = processEnvName(node.left);
    return name ? { name, value: node.right } : undefined;
  }
  if (ts.isPropertyAssignment(node) && ts.isObjectLiteralExpression(node.parent)) {
    const name = ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) ? node.name.text : undefined;
    return name ? { name, value: node.initializer } : undefined;
  }
  if (ts.isShorthandPropertyAssignment(node)) return { name: node.name.text, value: node.name };
  return undefined;
}

/** The 1-based lines that hold (part of) a comment. */
function commentLines(source: ts.SourceFile): Set<number> {
  const lines = new Set<number>();
  const text = source.getFullText();
  const mark = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      const first = source.getLineAndCharacterOfPosition(r.pos).line;
      const last = source.getLineAndCharacterOfPosition(r.end).line;
      for (let l = first; l <= last; l++) lines.add(l + 1);
    }
  };
  // Every comment is trivia before or after some token: walk down to the tokens.
  const visit = (node: ts.Node) => {
    const children = node.getChildren(source);
    if (children.length) return children.forEach(visit);
    mark(ts.getLeadingCommentRanges(text, node.pos));
    mark(ts.getTrailingCommentRanges(text, node.end));
  };
  visit(source);
  return lines;
}

/** Every place a file sets a declared setting to something other than its default. */
function nonDefaultSettings(fileName: string, text: string): Place[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { line: number; name: string }[] = [];
  const visit = (node: ts.Node) => {
    const set = settingSet(node);
    if (set && NAMES.has(set.name) && !isDefault(set.name, set.value)) {
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, name: set.name });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (!found.length) return [];
  const comments = commentLines(source);
  return found.map(({ line, name }) => {
    const window = Array.from({ length: WINDOW + 1 }, (_, i) => line - i);
    return { line, name, commented: window.some((l) => comments.has(l)) };
  });
}

function scannedFiles(): string[] {
  return SCANNED.flatMap((entry) => {
    const full = path.join(ROOT, entry);
    if (fs.statSync(full).isFile()) return [entry];
    return fs.readdirSync(full, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile() && /\.(m?ts|tsx)$/.test(e.name))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
  }).sort();
}

describe("tests say why they set a setting a default install does not have", () => {
  it("finds the ways a test sets a setting, and takes a comment within 3 lines above as the why", () => {
    const sample = [
      'vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");', // 1: bare
      "// Stateful sessions: resources/subscribe needs one.", // 2
      'vi.stubEnv("MCP_STATEFUL_SESSIONS", "true");', // 3: the line above says why
      'vi.stubEnv("MCP_STATEFUL_SESSIONS", "false");', // 4: the default
      "process.env.PUBLIC_URL = origin;", // 5: computed; line 2 is within 3 lines above
      'process.env.REDIS_URL = "";', // 6: the default
      'process.env.PORT = "4000";', // 7: line 2 is 5 lines above, too far
      "",
      "",
      'process.env["API_RATE_LIMIT"] ??= "5";', // 10
      "const env = { SECRET_KEY };", // 11
      'const url = "http://example.test"; process.env.MCP_ALLOWED_HOSTS = "a.example";', // 12: "//" in a string is no comment
      'startApp({ env: { OAUTH_ENABLED: "false", REDIS_URL: "" } }); // OAuth off: the console without it', // 13
    ].join("\n");
    expect(nonDefaultSettings("sample.ts", sample)).toEqual([
      { line: 1, name: "MCP_STATEFUL_SESSIONS", commented: false },
      { line: 3, name: "MCP_STATEFUL_SESSIONS", commented: true },
      { line: 5, name: "PUBLIC_URL", commented: true },
      { line: 7, name: "PORT", commented: false },
      { line: 10, name: "API_RATE_LIMIT", commented: false },
      { line: 11, name: "SECRET_KEY", commented: false },
      { line: 12, name: "MCP_ALLOWED_HOSTS", commented: false },
      { line: 13, name: "OAUTH_ENABLED", commented: true },
    ]);
  });

  it("every place under tests/ that sets one says why in a comment", () => {
    const files = scannedFiles().filter((f) => !(f in EXEMPT));
    const places = files.flatMap((f) => nonDefaultSettings(f, fs.readFileSync(path.join(ROOT, f), "utf8")).map((p) => ({ file: f, ...p })));
    // The scan sees the project's own uses (a broken scan that finds nothing must not pass).
    expect(places.length).toBeGreaterThan(100);
    const unexplained = places.filter((p) => !p.commented).map((p) => `${p.file}:${p.line} ${p.name}`);
    expect(unexplained, "set a setting without a comment on the line or the 3 above saying why").toEqual([]);
  }, 120_000); // parsing every test file takes seconds, more on a busy machine

  it("each exempt file exists and has its reason", () => {
    for (const [file, reason] of Object.entries(EXEMPT)) {
      expect(fs.existsSync(path.join(ROOT, file)), file).toBe(true);
      expect(reason.length).toBeGreaterThan(20);
    }
  });
});
