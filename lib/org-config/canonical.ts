import type { HttpToolInput } from "@/lib/connectors/schemas";
import type { ConfigAuth, ConfigConnector, OrgConfigDocument } from "@/lib/org-config/schemas";

/**
 * One spelling of a configuration document: every default filled in and every list whose order
 * means nothing sorted, so the export and a document written by hand compare field by field.
 * Orders the surface shows are kept: tools, a server's connectors, a workspace's skills.
 */

export interface CanonicalDocument {
  version: 1;
  settings: { toolAuditDetail: string; auditRetentionDays: number | null };
  workspaces: CanonicalWorkspace[];
  connectors: CanonicalConnector[];
  roles: CanonicalRole[];
}

export interface CanonicalWorkspace {
  slug: string;
  name: string;
  knowledgeGraphEnabled: boolean;
  toolWhitelistsEnabled: boolean;
  servers: { name: string; instructions: string | null; connectors: string[]; tools: CanonicalToolOverride[] }[];
  skills: { name: string; content: string; connector: string | null; applied: boolean }[];
}

/** A server's override of one connector tool (only the fields it sets). */
export interface CanonicalToolOverride {
  connector: string;
  tool: string;
  name?: string;
  title?: string;
  description?: string;
  annotations?: Record<string, unknown>;
  hidden?: true;
}

export interface CanonicalTool {
  name: string;
  /** Absent when the tool has none (an http tool's input takes no null). */
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  request?: { method: string; path: string };
  /** http tools: what an admin set (issue 26); absent when none. */
  annotations?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  response?: { select: string };
}

export interface CanonicalConnector {
  slug: string;
  name: string;
  type: "http" | "mcp";
  instructions: string | null;
  baseUrl?: string;
  url?: string;
  protocolEra?: string;
  transport?: string;
  /** mcp connectors: new and changed tools wait for approval. */
  toolApproval?: boolean;
  headers: Record<string, string>;
  /** `{ type: "headers" }` when the document says nothing; `clientSecret` is a reference. */
  auth: ConfigAuth;
  tools: CanonicalTool[];
  resources: { uri: string; name: string; description: string | null; mimeType: string | null; fetchConfig: Record<string, unknown> | null }[];
  graph: {
    entities: { key: string; label: string; description: string | null }[];
    relations: { from: string; to: string; kind: string; description: string | null }[];
  };
}

export interface CanonicalRole {
  name: string;
  tools: { connector: string; tool: string }[];
  prompts: { connector: string; prompt: string }[];
}

const byText = <T>(key: (v: T) => string) => (a: T, b: T) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

export function canonicalDocument(doc: OrgConfigDocument): CanonicalDocument {
  return {
    version: 1,
    settings: { toolAuditDetail: doc.settings?.toolAuditDetail ?? "metadata", auditRetentionDays: doc.settings?.auditRetentionDays ?? null },
    workspaces: (doc.workspaces ?? []).map((w) => ({
      slug: w.slug,
      name: w.name,
      knowledgeGraphEnabled: w.knowledgeGraphEnabled ?? false,
      toolWhitelistsEnabled: w.toolWhitelistsEnabled ?? false,
      servers: (w.servers ?? []).map((s) => ({ name: s.name, instructions: s.instructions ?? null, connectors: s.connectors ?? [], tools: (s.tools ?? []).map(canonicalOverride).sort(byText((t) => `${t.connector}\0${t.tool}`)) })),
      skills: (w.skills ?? []).map((s) => ({ name: s.name, content: s.content, connector: s.connector ?? null, applied: s.applied ?? true })),
    })),
    connectors: (doc.connectors ?? []).map(canonicalConnector),
    roles: (doc.roles ?? []).map((r) => ({
      name: r.name,
      tools: [...new Map((r.tools ?? []).map((t) => [`${t.connector}\0${t.tool}`, t])).values()].sort(byText((t) => `${t.connector}\0${t.tool}`)),
      prompts: [...new Map((r.prompts ?? []).map((p) => [`${p.connector}\0${p.prompt}`, p])).values()].sort(byText((p) => `${p.connector}\0${p.prompt}`)),
    })),
  };
}

function canonicalOverride(o: NonNullable<NonNullable<NonNullable<OrgConfigDocument["workspaces"]>[number]["servers"]>[number]["tools"]>[number]): CanonicalToolOverride {
  return {
    connector: o.connector,
    tool: o.tool,
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.title !== undefined ? { title: o.title } : {}),
    ...(o.description !== undefined ? { description: o.description } : {}),
    ...(o.annotations !== undefined ? { annotations: o.annotations as Record<string, unknown> } : {}),
    ...(o.hidden ? { hidden: true as const } : {}),
  };
}

function canonicalConnector(c: ConfigConnector): CanonicalConnector {
  const common = {
    slug: c.slug,
    name: c.name,
    type: c.type,
    instructions: c.instructions ?? null,
    headers: Object.fromEntries(Object.entries(c.headers ?? {}).sort(byText(([name]) => name.toLowerCase()))),
    auth: canonicalAuth(c.auth),
    resources: (c.resources ?? [])
      .map((r) => ({ uri: r.uri, name: r.name, description: r.description ?? null, mimeType: r.mimeType ?? null, fetchConfig: r.fetchConfig ?? null }))
      .sort(byText((r) => r.uri)),
    graph: {
      entities: (c.graph?.entities ?? []).map((e) => ({ key: e.key, label: e.label, description: e.description ?? null })).sort(byText((e) => e.key)),
      relations: (c.graph?.relations ?? [])
        .map((r) => ({ from: r.from, to: r.to, kind: r.kind, description: r.description ?? null }))
        .sort(byText((r) => `${r.from}\0${r.to}\0${r.kind}\0${r.description ?? ""}`)),
    },
  };
  const tools = (c.tools ?? []).map((t) => ({
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description ?? "",
    inputSchema: t.inputSchema ?? { type: "object" },
    ...(c.type === "http" && "request" in t && t.request ? httpToolParts(t as HttpToolInput) : {}),
  }));
  if (c.type === "http") return { ...common, baseUrl: c.baseUrl, tools };
  return { ...common, url: c.url, protocolEra: c.protocolEra ?? "auto", transport: c.transport ?? "streamable-http", toolApproval: c.toolApproval ?? true, tools };
}

/** The auth without its unset fields (an export and a hand-written document compare alike). */
function canonicalAuth(auth: ConfigAuth | undefined): ConfigAuth {
  if (!auth || auth.type === "headers") return { type: "headers" };
  return Object.fromEntries(Object.entries(auth).filter(([, value]) => value !== undefined)) as ConfigAuth;
}

/** The names `${secret:NAME}` references in a header value. */
export function secretNamesIn(value: string): string[] {
  return [...value.matchAll(/\$\{secret:([^}]*)\}/g)].map((m) => m[1]);
}

/** An http tool's request and what an admin set on it; an mcp tool's fields are the upstream's, discovered again. */
function httpToolParts(t: HttpToolInput): Pick<CanonicalTool, "request" | "annotations" | "outputSchema" | "response"> {
  return {
    request: { method: t.request.method, path: t.request.path },
    ...(t.annotations ? { annotations: t.annotations } : {}),
    ...(t.outputSchema ? { outputSchema: t.outputSchema as Record<string, unknown> } : {}),
    ...(t.response ? { response: t.response } : {}),
  };
}
