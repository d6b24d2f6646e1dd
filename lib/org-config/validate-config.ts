import { ValidationError, type FieldError } from "@/lib/errors";
import type { CanonicalDocument, CanonicalWorkspace } from "@/lib/org-config/canonical";
import { overrideCollisions } from "@/lib/servers/override-collisions";

/**
 * What the document's schema cannot check alone: keys that must be unique, references to
 * connectors, which must be in the document or (without prune) already in the organization, and
 * a connector's type, which stays what it is.
 * Every problem is reported with its path in the document (422).
 */
export function assertValidReferences(desired: CanonicalDocument, current: CanonicalDocument, prune: boolean): void {
  const errors: FieldError[] = [];
  const known = new Set([...desired.connectors.map((c) => c.slug), ...(prune ? [] : current.connectors.map((c) => c.slug))]);
  const connectorRef = (slug: string | null, path: string) => {
    if (slug !== null && !known.has(slug)) errors.push({ path, message: `No connector "${slug}" in the document${prune ? "" : " or the organization"}.` });
  };
  unique(desired.workspaces.map((w) => w.slug), "workspaces", "slug", errors);
  unique(desired.connectors.map((c) => c.slug), "connectors", "slug", errors);
  unique(desired.roles.map((r) => r.name), "roles", "name", errors);
  desired.workspaces.forEach((w, i) => {
    unique(w.servers.map((s) => s.name), `workspaces.${i}.servers`, "name", errors);
    unique(w.skills.map((s) => s.name), `workspaces.${i}.skills`, "name", errors);
    w.servers.forEach((s, j) => {
      errors.push(...overrideErrors(s, `workspaces.${i}.servers.${j}`, (slug) => toolsOf(slug, desired, current)));
      s.connectors.forEach((slug, k) => connectorRef(slug, `workspaces.${i}.servers.${j}.connectors.${k}`));
      s.connectors.forEach((slug, k) => {
        if (s.connectors.indexOf(slug) < k) errors.push({ path: `workspaces.${i}.servers.${j}.connectors.${k}`, message: `The connector "${slug}" is listed twice; a server has each connector once.` });
      });
    });
    w.skills.forEach((s, j) => connectorRef(s.connector, `workspaces.${i}.skills.${j}.connector`));
  });
  const currentType = new Map(current.connectors.map((c) => [c.slug, c.type]));
  desired.connectors.forEach((c, i) => {
    const was = currentType.get(c.slug);
    // Its tools, secrets and auth belong to its type: a connector of another type is another connector.
    if (was !== undefined && was !== c.type) errors.push({ path: `connectors.${i}.type`, message: `The connector "${c.slug}" is an ${was} connector; its type cannot change. Give the ${c.type} one another slug (and delete this one, or apply with prune).` });
    unique(c.tools.map((t) => t.name), `connectors.${i}.tools`, "name", errors);
    unique(c.resources.map((r) => r.uri), `connectors.${i}.resources`, "uri", errors);
  });
  desired.roles.forEach((r, i) => {
    r.tools.forEach((t, j) => connectorRef(t.connector, `roles.${i}.tools.${j}.connector`));
    r.prompts.forEach((p, j) => connectorRef(p.connector, `roles.${i}.prompts.${j}.connector`));
  });
  if (errors.length > 0) throw new ValidationError(errors, "The configuration document is not valid; nothing was changed.");
}

/**
 * A server's tool overrides as PUT /servers/{id}/tool-overrides checks them: each names one of
 * the server's connectors and a tool once, and no rename makes two published names collide.
 */
function overrideErrors(server: CanonicalWorkspace["servers"][number], path: string, toolsOf: (slug: string) => string[]): FieldError[] {
  const errors: FieldError[] = [];
  const assigned = new Set(server.connectors);
  const seen = new Set<string>();
  server.tools.forEach((t, k) => {
    if (!assigned.has(t.connector)) errors.push({ path: `${path}.tools.${k}.connector`, message: `"${t.connector}" is not one of this server's connectors.` });
    if (seen.has(`${t.connector}/${t.tool}`)) errors.push({ path: `${path}.tools.${k}.tool`, message: `The tool "${t.tool}" of "${t.connector}" is listed twice.` });
    seen.add(`${t.connector}/${t.tool}`);
  });
  if (errors.length > 0) return errors;
  const tools = server.connectors.flatMap((slug) => toolsOf(slug).map((name) => ({ connectorId: slug, connectorSlug: slug, name })));
  const items = server.tools.map(({ connector, ...t }) => ({ ...t, connectorId: connector }));
  return overrideCollisions(tools, items).map((e) => ({ ...e, path: `${path}.tools.${e.path.slice("items.".length)}` }));
}

/**
 * A connector's tools after the apply, as far as the plan can know them: an http connector's are
 * the document's; an mcp connector's are its upstream's, so those it has now (or, new, those the
 * document lists for review).
 */
function toolsOf(slug: string, desired: CanonicalDocument, current: CanonicalDocument): string[] {
  const wanted = desired.connectors.find((c) => c.slug === slug);
  const now = current.connectors.find((c) => c.slug === slug);
  const tools = wanted?.type === "http" ? wanted.tools : (now?.tools ?? wanted?.tools ?? []);
  return tools.map((t) => t.name);
}

function unique(keys: string[], path: string, field: string, errors: FieldError[]): void {
  const seen = new Set<string>();
  keys.forEach((key, i) => {
    if (seen.has(key)) errors.push({ path: `${path}.${i}.${field}`, message: `Another object here already has the ${field} "${key}".` });
    seen.add(key);
  });
}
