import { AppError, ValidationError } from "@/lib/errors";

/**
 * The one check of untrusted text at the edge (JSON API bodies, query and path, multipart
 * fields, MCP messages, sign-in forms), made before any database or upstream work. PostgreSQL
 * stores neither U+0000 (text and jsonb refuse it) nor an unpaired UTF-16 surrogate (it has no
 * UTF-8 form), so such text would otherwise fail deep inside a query or the audit insert.
 */

export type TextFlaw = "nul" | "surrogate";

/** What is wrong with `text`, or null when PostgreSQL can store it. */
export function textFlaw(text: string): TextFlaw | null {
  if (text.includes("\0")) return "nul";
  if (!text.isWellFormed()) return "surrogate";
  return null;
}

export function describeFlaw(flaw: TextFlaw): string {
  return flaw === "nul" ? "contains a NUL character (U+0000)" : "contains an unpaired UTF-16 surrogate";
}

export interface FlawedText {
  /** Path to the string (or key) inside the value: ["tools", 0, "name"]. */
  path: (string | number)[];
  flaw: TextFlaw;
}

/** A visited value with the link to its parent, so a path is only built for the one found. */
interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

function pathOf(visit: Visit, last?: string): (string | number)[] {
  const reversed: (string | number)[] = last === undefined ? [] : [last];
  for (let v: Visit | null = visit; v && v.key !== null; v = v.parent) reversed.push(v.key);
  return reversed.reverse();
}

/**
 * The first string or object key inside `value` that cannot be stored, or null. Walks without
 * recursion and in linear time, so a deeply nested body (MCP messages have no depth limit)
 * can neither overflow the stack nor make this slow.
 */
export function findFlawedText(value: unknown): FlawedText | null {
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    if (typeof current === "string") {
      const flaw = textFlaw(current);
      if (flaw) return { path: pathOf(visit), flaw };
      continue;
    }
    if (current === null || typeof current !== "object") continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: visit });
      continue;
    }
    for (const [key, child] of Object.entries(current)) {
      const flaw = textFlaw(key);
      if (flaw) return { path: pathOf(visit, key), flaw };
      stack.push({ value: child, key, parent: visit });
    }
  }
  return null;
}

/** "tools.0.name", or `fallback` for the value itself. */
export function pathText(path: (string | number)[], fallback = "(body)"): string {
  if (path.length === 0) return fallback;
  // A path thousands of levels deep would make the answer as large as the request.
  const shown = path.length > 16 ? [...path.slice(0, 8), "…", ...path.slice(-4)] : path;
  return shown.map(String).join(".");
}

/** 422 naming the first flawed field of a request body (or form), if any. */
export function assertStorableBody(value: unknown): void {
  const found = findFlawedText(value);
  if (found) {
    const field = pathText(found.path);
    throw new ValidationError([{ path: field, message: `The value ${describeFlaw(found.flaw)}.` }], `The field "${field}" ${describeFlaw(found.flaw)}.`);
  }
}

/** 422 naming the first flawed query parameter, if any (names are checked as well as values). */
export function assertStorableQuery(params: URLSearchParams): void {
  for (const [name, value] of params) {
    const flaw = textFlaw(name) ?? textFlaw(value);
    if (flaw) {
      throw new ValidationError([{ path: name, message: `The query parameter ${describeFlaw(flaw)}.` }], `The query parameter "${name}" ${describeFlaw(flaw)}.`);
    }
  }
}

/** 400 when a decoded path segment (an id from the URL) cannot be stored. */
export function assertStorablePath(params: Record<string, string | string[]> | undefined): void {
  // Next.js gives a route without dynamic segments no params object at all.
  for (const [name, value] of Object.entries(params ?? {})) {
    for (const part of Array.isArray(value) ? value : [value]) {
      const flaw = textFlaw(part);
      if (flaw) throw new AppError("bad_request", `The path segment {${name}} ${describeFlaw(flaw)}.`);
    }
  }
}

/**
 * Why a raw (still percent-encoded) URL path cannot be served, or null: an escape that is not
 * UTF-8 (`%C0%AE`), or one that decodes to U+0000. Next.js answers the first with a bare 500.
 */
export function rawPathProblem(rawPathname: string): string | null {
  for (const segment of rawPathname.split("/")) {
    if (!segment.includes("%")) continue;
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return "The URL path contains a percent-escape that is not valid UTF-8.";
    }
    const flaw = textFlaw(decoded);
    if (flaw) return `The URL path ${describeFlaw(flaw)}.`;
  }
  return null;
}
