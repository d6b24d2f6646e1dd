import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import { errorText, logger } from "@/lib/log";

/**
 * Validates tool arguments against the tool's inputSchema before anything leaves the platform.
 * Uses the Ajv engine bundled with the MCP SDK (the same dialect dispatch it applies to
 * schemas: no `$schema` or 2020-12 → 2020-12, draft-07/06, 2019-09).
 */

type Check = (args: unknown) => { valid: true } | { valid: false; message: string };

const engine = new AjvJsonSchemaValidator();
/**
 * Compiled validators keyed by the snapshot tool's inputSchema object: a snapshot lives for
 * one config version, so each schema is compiled once per version and collected with it.
 */
const compiled = new WeakMap<object, Check>();

const ACCEPT_ALL: Check = () => ({ valid: true });

/** Null when the arguments fit the schema; otherwise "Invalid arguments: /id must be string". */
export function invalidArgumentsMessage(schema: Record<string, unknown>, args: Record<string, unknown>): string | null {
  const outcome = checkFor(schema)(args);
  return outcome.valid ? null : `Invalid arguments: ${outcome.message}`;
}

/**
 * Null when `value` fits `schema`; otherwise what does not ("/items/0/id must be string"). An
 * http tool's structuredContent is checked with it against its outputSchema (issue 26): the
 * same engine the SDK client checks it with.
 */
export function schemaMismatch(schema: Record<string, unknown>, value: unknown): string | null {
  const outcome = checkFor(schema)(value);
  return outcome.valid ? null : outcome.message;
}

function checkFor(schema: Record<string, unknown>): Check {
  let check = compiled.get(schema);
  if (!check) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

function compile(schema: Record<string, unknown>): Check {
  try {
    const validate = engine.getValidator(schema);
    return (args) => {
      const result = validate(args);
      return result.valid ? { valid: true } : { valid: false, message: describeErrors(result.errorMessage) };
    };
  } catch (e) {
    // A schema our engine cannot compile (an unknown dialect, a broken pattern) would otherwise
    // make the tool unusable; the server that executes the tool still validates.
    logger.warn({ err: errorText(e) }, "tool input schema cannot be compiled; arguments not validated");
    return ACCEPT_ALL;
  }
}

/**
 * Ajv's errorsText joins errors with ", " and prefixes each with the data variable ("data/id
 * must be string"); what a caller needs is the JSON pointer of the field ("/id must be string").
 */
function describeErrors(text: string | undefined): string {
  if (!text) return "the arguments do not match the tool's input schema";
  return text
    .split(/, (?=data[/ ])/)
    .map((part) => part.replace(/^data(?=[/ ])/, "").trim())
    .join("; ");
}
