import { isDeepStrictEqual } from "node:util";
import type { CanonicalConnector, CanonicalDocument } from "@/lib/org-config/canonical";
import type { ConfigChange } from "@/lib/org-config/schemas";

/**
 * The changes that turn the organization as it is (`current`) into the document (`desired`):
 * one entry per object, keyed by slug or name; a change inside a nested list (a connector's
 * tool, a resource, a graph entity) is an update of its parent with the field's path. Objects
 * the document leaves out stay unless `prune`. An mcp connector's tools are never compared:
 * they are its upstream's, discovered again after an apply.
 */

type Field = NonNullable<ConfigChange["fields"]>[number];

export interface PlanInput {
  current: CanonicalDocument;
  desired: CanonicalDocument;
  prune: boolean;
  /** Plaintext secret headers of the current connectors, by slug. */
  currentHeaders: Map<string, Record<string, string>>;
  /** A header value with its references resolved, or null when one is not set. */
  resolveHeader: (value: string) => string | null;
  /** Plaintext client secrets of the current connectors' auth, by slug. */
  currentClientSecrets: Map<string, string>;
}

interface Keyed {
  kind: ConfigChange["kind"];
  key: string;
  value: unknown;
}

export function planChanges(input: PlanInput): ConfigChange[] {
  const { current, desired, prune } = input;
  const changes: ConfigChange[] = [];
  const settingsFields = diff("", current.settings, desired.settings);
  if (settingsFields.length > 0) changes.push({ action: "update", kind: "settings", name: "settings", fields: settingsFields });
  const groups: [Keyed[], Keyed[]][] = [
    [workspaceObjects(current), workspaceObjects(desired)],
    [current.connectors.map(connectorObject), desired.connectors.map(connectorObject)],
    [current.roles.map((r) => ({ kind: "role", key: r.name, value: r })), desired.roles.map((r) => ({ kind: "role", key: r.name, value: r }))],
    [nestedObjects(current, "server"), nestedObjects(desired, "server")],
    withSharedPositions(nestedObjects(current, "skill"), nestedObjects(desired, "skill")),
  ];
  for (const [now, wanted] of groups) {
    const existing = new Map(now.map((o) => [o.key, o]));
    for (const o of wanted) {
      const before = existing.get(o.key);
      if (!before) {
        changes.push({ action: "create", kind: o.kind, name: o.key });
        continue;
      }
      const fields = diff("", before.value, o.value);
      if (o.kind === "connector") fields.push(...headerFields(input, o.key, current, desired), ...clientSecretFields(input, o.key, current, desired));
      if (fields.length > 0) changes.push({ action: "update", kind: o.kind, name: o.key, fields });
    }
    if (!prune) continue;
    const kept = new Set(wanted.map((o) => o.key));
    for (const o of now) if (!kept.has(o.key)) changes.push({ action: "delete", kind: o.kind, name: o.key });
  }
  return changes;
}

/** Workspaces without their servers and skills (those are objects of their own). */
function workspaceObjects(doc: CanonicalDocument): Keyed[] {
  return doc.workspaces.map(({ servers: _s, skills: _k, ...w }) => ({ kind: "workspace", key: w.slug, value: w }));
}

function nestedObjects(doc: CanonicalDocument, kind: "server" | "skill"): Keyed[] {
  return doc.workspaces.flatMap((w): Keyed[] =>
    kind === "server"
      ? // Overrides keyed by `<connector>/<tool>`, so a changed one is `tools.<connector>/<tool>.…`.
        w.servers.map((s) => ({ kind, key: `${w.slug}/${s.name}`, value: { ...s, tools: Object.fromEntries(s.tools.map((t) => [`${t.connector}/${t.tool}`, t])) } }))
      : w.skills.map((s) => ({ kind, key: `${w.slug}/${s.name}`, value: s })),
  );
}

/**
 * Skills with their place among the skills both sides name (the order the instructions show):
 * a skill left out of the document (kept, without prune) moves nobody.
 */
function withSharedPositions(now: Keyed[], wanted: Keyed[]): [Keyed[], Keyed[]] {
  const shared = (list: Keyed[], other: Keyed[]) => {
    const keys = new Set(other.map((o) => o.key));
    const workspaceOf = (key: string) => key.slice(0, key.indexOf("/"));
    const seen = new Map<string, number>();
    return list.map((o) => {
      if (!keys.has(o.key)) return o;
      const position = seen.get(workspaceOf(o.key)) ?? 0;
      seen.set(workspaceOf(o.key), position + 1);
      return { ...o, value: { ...(o.value as object), position } };
    });
  };
  return [shared(now, wanted), shared(wanted, now)];
}

/**
 * A connector as compared: keyed lists become maps (so a changed tool is `tools.<name>.…`) with
 * the order apart; headers are compared by value elsewhere; mcp tools not at all.
 */
function connectorObject(c: CanonicalConnector): Keyed {
  const { headers: _h, tools, resources, graph, auth, ...rest } = c;
  const { clientSecret: _secret, ...authShown } = auth as { clientSecret?: string };
  const value = {
    ...rest,
    auth: authShown,
    ...(c.type === "http" ? { tools: Object.fromEntries(tools.map((t) => [t.name, t])), toolOrder: tools.map((t) => t.name) } : {}),
    resources: Object.fromEntries(resources.map((r) => [r.uri, r])),
    graph: { entities: Object.fromEntries(graph.entities.map((e) => [e.key, e])), relations: graph.relations },
  };
  return { kind: "connector", key: c.slug, value };
}

/**
 * Header changes: names added or removed, or a value whose resolved secret differs from the
 * stored one (the fields show references, never values).
 */
function headerFields(input: PlanInput, slug: string, current: CanonicalDocument, desired: CanonicalDocument): Field[] {
  const stored = input.currentHeaders.get(slug) ?? {};
  const shownNow = current.connectors.find((c) => c.slug === slug)?.headers ?? {};
  const wanted = desired.connectors.find((c) => c.slug === slug)?.headers ?? {};
  const fields: Field[] = [];
  for (const name of new Set([...Object.keys(stored), ...Object.keys(wanted)])) {
    const from = shownNow[name] ?? null;
    const to = wanted[name] ?? null;
    if (to === null || !(name in stored)) {
      fields.push({ path: `headers.${name}`, from, to });
      continue;
    }
    // A reference not set here keeps the stored value (an export planned against its own org).
    const resolved = input.resolveHeader(to);
    if (resolved !== null && resolved !== stored[name]) fields.push(withNote({ path: `headers.${name}`, from, to }));
  }
  return fields;
}

/** The same reference on both sides: the secret it names was set again after the last apply. */
function withNote(field: Field): Field {
  return field.from === field.to ? { ...field, note: "The secret's value changed since the last apply." } : field;
}

/**
 * The auth's client secret, like a header: a reference whose resolved secret differs from the
 * stored one, or a new secret; left out of the document, the stored one is kept (as a PATCH does).
 */
function clientSecretFields(input: PlanInput, slug: string, current: CanonicalDocument, desired: CanonicalDocument): Field[] {
  const secretOf = (doc: CanonicalDocument) => (doc.connectors.find((c) => c.slug === slug)?.auth as { clientSecret?: string } | undefined)?.clientSecret ?? null;
  const [from, to] = [secretOf(current), secretOf(desired)];
  if (to === null) return [];
  const stored = input.currentClientSecrets.get(slug);
  const resolved = input.resolveHeader(to);
  const changed = stored === undefined || (resolved !== null && resolved !== stored);
  return changed ? [withNote({ path: "auth.clientSecret", from, to })] : [];
}

/** Leaf differences between two JSON values; objects are walked, arrays compared whole. */
export function diff(path: string, from: unknown, to: unknown, out: Field[] = []): Field[] {
  if (isDeepStrictEqual(from, to)) return out;
  if (isPlainObject(from) && isPlainObject(to)) {
    for (const key of new Set([...Object.keys(from), ...Object.keys(to)])) diff(path ? `${path}.${key}` : key, from[key] ?? null, to[key] ?? null, out);
    return out;
  }
  out.push({ path, from: from ?? null, to: to ?? null });
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
