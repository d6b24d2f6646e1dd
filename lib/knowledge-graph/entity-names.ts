/**
 * Reading entity names out of tool names and parameter names, for the static layer of the
 * knowledge graph. Heuristics, pure and deterministic: `get_customer`, `listCustomers` and
 * `customers.list` all name the entity `customer`; `customer_id`, `customerId`,
 * `customerRef` and `customer_reference` all point at it.
 */

/** Verbs that start (or end) a tool name and are not part of the entity's name. */
const VERBS = new Set([
  "get", "list", "search", "find", "fetch", "read", "query", "lookup", "count", "describe", "show", "retrieve",
  "create", "add", "insert", "new", "update", "patch", "set", "edit", "modify", "upsert", "save",
  "delete", "remove", "archive", "cancel", "close",
]);
/** Verbs whose tools do not hand the entity back. */
const NON_RETURNING_VERBS = new Set(["delete", "remove", "archive", "cancel", "close", "count"]);
/** Words after which the rest of a tool name qualifies the entity ("get_customer_by_email"). */
const QUALIFIERS = new Set(["by", "for", "with", "from", "in", "of"]);
/** Trailing words that make a parameter a reference to another entity. */
const ID_WORDS = new Set(["id", "ids", "uuid", "ref", "refs", "reference", "references"]);

/** Splits snake_case, kebab-case, dotted and camelCase names into lowercase words. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/** A simple English singular: categories → category, addresses → address, orders → order. */
export function singular(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (/(ss|x|ch|sh|z)es$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(word)) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** The entity key for a run of words: snake_case with the last word made singular. */
function entityKey(nounWords: string[]): string | null {
  if (nounWords.length === 0) return null;
  const last = singular(nounWords[nounWords.length - 1]);
  return [...nounWords.slice(0, -1), last].join("_");
}

export interface ToolEntity {
  key: string;
  /** False for tools that delete or count their entity rather than hand it back. */
  returns: boolean;
}

/**
 * The entity a tool works on, read from its name: the words after a leading verb (or
 * before a trailing one), up to a qualifier such as "by". Null when the name has no verb
 * or nothing but a verb ("search").
 */
export function entityOfToolName(name: string): ToolEntity | null {
  const all = words(name);
  let verb: string | undefined;
  let rest: string[];
  if (all.length > 1 && VERBS.has(all[0])) [verb, rest] = [all[0], all.slice(1)];
  else if (all.length > 1 && VERBS.has(all[all.length - 1])) [verb, rest] = [all[all.length - 1], all.slice(0, -1)];
  else return null;
  const cut = rest.findIndex((w) => QUALIFIERS.has(w));
  const key = entityKey(cut === -1 ? rest : rest.slice(0, cut));
  return key ? { key, returns: !NON_RETURNING_VERBS.has(verb) } : null;
}

/**
 * The entity an id-like parameter points at (`customer_id`, `customerId`, `customerIds`,
 * `customerRef`, `customerReference` → "customer"), or null for other parameters and for a
 * bare `id`.
 */
export function entityOfIdField(field: string): string | null {
  const all = words(field);
  if (all.length < 2 || !ID_WORDS.has(all[all.length - 1])) return null;
  return entityKey(all.slice(0, -1));
}

/** True for a parameter that identifies the tool's own entity (`id`, `uuid`, `ref`). */
export function isOwnIdField(field: string): boolean {
  const all = words(field);
  return all.length === 1 && ID_WORDS.has(all[0]);
}

/** "support_ticket" → "Support ticket". */
export function labelOfKey(key: string): string {
  const text = key.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
