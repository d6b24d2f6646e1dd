import { parseDocument, stringify } from "yaml";
import { AppError, ValidationError } from "@/lib/errors";
import { maxJsonBodyBytes, readBodyText, readJsonBody } from "@/lib/api/read-json-body";
import { assertStorableBody } from "@/lib/api/validate-text";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "@/lib/schemas/common";
import { OrgConfigDocument } from "@/lib/org-config/schemas";

/** The configuration document on the wire: YAML (the default) or JSON, both ways. */

const YAML_TYPE = /^(application|text)\/(x-)?yaml\b/i;

/** The document of a plan or apply request: `application/json` or `application/yaml`; 422 with each problem's path. */
export async function readConfigDocument(request: Request): Promise<OrgConfigDocument> {
  const type = (request.headers.get("content-type") ?? "").trim();
  const value = YAML_TYPE.test(type) ? await readYamlBody(request) : await readJsonBody(request);
  const document = OrgConfigDocument.parse(value);
  // A misspelt field would otherwise be dropped without a word, and the apply would leave out what it meant.
  const unknown = unknownFields(value, document);
  if (unknown.length > 0) throw new ValidationError(unknown.map((path) => ({ path, message: `"${path.split(".").pop()}" is not a field here (the document's fields: GET /api/v1/config.schema.json).` })), "The configuration document is not valid; nothing was changed.");
  return document;
}

/**
 * The paths of the fields `input` has and its parsed `output` lost: zod drops the keys an object
 * schema does not name, at every depth, so what it dropped is what the document's schema does not know.
 */
function unknownFields(input: unknown, output: unknown, path: string[] = []): string[] {
  if (Array.isArray(input)) return Array.isArray(output) ? input.flatMap((v, i) => unknownFields(v, output[i], [...path, String(i)])) : [];
  if (!isObject(input) || !isObject(output)) return [];
  return Object.keys(input).flatMap((key) => (key in output ? unknownFields(input[key], output[key], [...path, key]) : [[...path, key].join(".")]));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

async function readYamlBody(request: Request): Promise<unknown> {
  const limit = maxJsonBodyBytes();
  const text = await readBodyText(request, limit);
  if (text === null) throw new AppError("payload_too_large", `The request body is larger than ${limit} bytes.`);
  if (text.trim() === "") throw new AppError("bad_request", "The request body is empty; send a YAML configuration document.");
  // Aliases are refused: a few lines of them expand to gigabytes (the "billion laughs").
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) throw new AppError("bad_request", `The request body is not valid YAML: ${doc.errors[0].message}`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 0 });
  } catch (e) {
    throw new AppError("bad_request", `The request body is not valid YAML: ${(e as Error).message}`);
  }
  if (jsonDeeperThan(value)) throw new ValidationError([{ path: "(body)", message: `The document is nested more than ${MAX_JSON_DEPTH} levels deep.` }]);
  assertStorableBody(value);
  return value;
}

/** True when the caller asked for JSON rather than YAML (YAML is the default). */
export function wantsJson(request: Request): boolean {
  const accept = request.headers.get("accept") ?? "";
  return /application\/json/i.test(accept) && !/yaml/i.test(accept);
}

/** The document as the caller asked for it, with its ETag. */
export function documentResponse(document: unknown, etag: string, request: Request): Response {
  const json = wantsJson(request);
  const body = json ? JSON.stringify(document) : stringify(document, { lineWidth: 0, aliasDuplicateObjects: false });
  return new Response(body, { status: 200, headers: { "content-type": json ? "application/json" : "application/yaml; charset=utf-8", etag } });
}

/** A JSON answer with the ETag of the configuration it was made against. */
export function jsonWithEtag(body: unknown, etag: string): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", etag } });
}
