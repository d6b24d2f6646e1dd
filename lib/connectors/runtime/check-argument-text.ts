import { ValidationError } from "@/lib/errors";

/**
 * Tool arguments must be storable text: PostgreSQL refuses U+0000 and unpaired UTF-16
 * surrogates in text and JSON, so an argument holding one could reach the upstream and then
 * fail its own audit event. Such a call is refused before anything else happens (issue 10:
 * "A tool call is never executed without its audit event").
 */

/** JSON-RPC "Invalid params": the MCP layer answers this error with that code. */
export class InvalidToolArgumentsError extends ValidationError {
  constructor(readonly pointer: string, what: string) {
    super([{ path: `arguments${pointer}`, message: what }], `Invalid arguments: ${pointer || "the arguments"} ${what}.`);
    this.name = "InvalidToolArgumentsError";
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What is wrong with `text`, or null when it is storable. */
function unstorable(text: string): string | null {
  if (text.includes("\u0000")) return "holds the character U+0000 (NUL), which tool arguments may not contain";
  const lone = LONE_SURROGATE.exec(text);
  if (lone) {
    const code = lone[0].charCodeAt(0).toString(16).toUpperCase();
    return `holds an unpaired UTF-16 surrogate (U+${code}), which is not valid Unicode text`;
  }
  return null;
}

/** A JSON pointer segment ("~" and "/" escaped), itself printable when the key is the culprit. */
function segment(key: string): string {
  const printable = unstorable(key) ? JSON.stringify(key).slice(1, -1) : key;
  return printable.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Throws InvalidToolArgumentsError naming the first argument (JSON pointer) that is not storable. */
export function assertStorableArguments(args: unknown): void {
  // Depth-first with an explicit stack: a deeply nested argument cannot overflow the call stack.
  const stack: Array<{ value: unknown; pointer: string }> = [{ value: args, pointer: "" }];
  while (stack.length > 0) {
    const { value, pointer } = stack.pop()!;
    if (typeof value === "string") {
      const what = unstorable(value);
      if (what) throw new InvalidToolArgumentsError(pointer, what);
      continue;
    }
    if (!value || typeof value !== "object") continue;
    const isArray = Array.isArray(value);
    const entries: Array<[string, unknown]> = isArray ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [key, child] of entries.reverse()) {
      const at = `${pointer}/${segment(key)}`;
      const badKey = isArray ? null : unstorable(key);
      if (badKey) throw new InvalidToolArgumentsError(at, `is a name that ${badKey}`);
      stack.push({ value: child, pointer: at });
    }
  }
}
