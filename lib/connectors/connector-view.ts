import type { Prisma } from "@/lib/generated/prisma/client";
import { secretHeaderNames } from "@/lib/connectors/secret-headers";
import type { ToolRequest } from "@/lib/connectors/schemas";
import type { ToolAnnotations, ToolResponseShape } from "@/lib/connectors/tool-fields";
import type { ApprovedDefinition } from "@/lib/connectors/tool-approval";
import { asEraFallback, type EraFallback } from "@/lib/connectors/runtime/era-fallback";
import { asConnectorAuth, type ConnectorAuth } from "@/lib/connectors/upstream-auth/auth-settings";
import { PROTOCOL_ERAS, type ProtocolEra, UPSTREAM_TRANSPORTS, type UpstreamTransportKind } from "@/lib/connectors/upstream-protocol";

/** What a connector looks like in answers: everything but its secrets. */

export const connectorSelect = {
  id: true,
  orgId: true,
  name: true,
  slug: true,
  type: true,
  instructions: true,
  config: true,
  secretHeaders: true,
  protocolVersion: true,
  eraFallback: true,
  protocolEra: true,
  transport: true,
  auth: true,
  toolApproval: true,
  createdAt: true,
  updatedAt: true,
  tools: { select: { name: true, title: true, description: true, inputSchema: true, request: true, annotations: true, outputSchema: true, response: true, approvalState: true, approvedDefinition: true }, orderBy: [{ position: "asc" }, { name: "asc" }] },
} satisfies Prisma.ConnectorSelect;

type ConnectorRow = Prisma.ConnectorGetPayload<{ select: typeof connectorSelect }>;

export interface ConnectorToolView {
  name: string;
  title: string | null;
  description: string;
  inputSchema: Record<string, unknown>;
  request: ToolRequest | null;
  annotations: ToolAnnotations | null;
  outputSchema: Record<string, unknown> | null;
  response: ToolResponseShape | null;
  approval: ToolApprovalView | null;
}

export interface ToolApprovalView {
  state: "changed" | "new";
  approved: ApprovedDefinition | null;
}

export interface ConnectorView {
  id: string;
  orgId: string;
  name: string;
  slug: string;
  type: "http" | "mcp";
  instructions: string | null;
  config: ConnectorConfigView;
  hasSecretHeaders: string[];
  /** How the upstream is authenticated, without any secret. */
  auth: ConnectorAuth;
  protocolVersion: string | null;
  /** An `auto` connector fell back to `initialize` (lib/connectors/runtime/era-fallback.ts); null otherwise. */
  eraFallback: EraFallback | null;
  tools: ConnectorToolView[];
  createdAt: Date;
  updatedAt: Date;
}

/** The non-secret settings: `baseUrl` (http); `url`, `protocolEra` and `transport` (mcp). */
export interface ConnectorConfigView {
  baseUrl?: string;
  url?: string;
  protocolEra?: ProtocolEra;
  transport?: UpstreamTransportKind;
  toolApproval?: boolean;
}

/** A stored era (the column's CHECK allows only these); anything else reads as `auto`. */
export function asProtocolEra(value: string): ProtocolEra {
  return (PROTOCOL_ERAS as readonly string[]).includes(value) ? (value as ProtocolEra) : "auto";
}

/** A stored transport; anything else reads as `streamable-http`. */
export function asTransportKind(value: string): UpstreamTransportKind {
  return (UPSTREAM_TRANSPORTS as readonly string[]).includes(value) ? (value as UpstreamTransportKind) : "streamable-http";
}

/** The non-secret settings of a stored config: `baseUrl` (http) or `url` (mcp), nothing else. */
export function publicConfig(type: "http" | "mcp", config: Prisma.JsonValue): { baseUrl?: string; url?: string } {
  const c = (config && typeof config === "object" && !Array.isArray(config) ? config : {}) as Record<string, unknown>;
  const key = type === "http" ? "baseUrl" : "url";
  return typeof c[key] === "string" ? { [key]: c[key] } : {};
}

/** Builds the answer of a connector row; the secret header values never leave this function. */
export function toConnectorView(row: ConnectorRow): ConnectorView {
  const { secretHeaders, config, tools, protocolEra, transport, eraFallback, auth, toolApproval, ...rest } = row;
  const mcp = row.type === "mcp" ? { protocolEra: asProtocolEra(protocolEra), transport: asTransportKind(transport), toolApproval } : {};
  return {
    ...rest,
    config: { ...publicConfig(row.type, config), ...mcp },
    hasSecretHeaders: secretHeaderNames(secretHeaders, row.id),
    auth: asConnectorAuth(auth),
    eraFallback: asEraFallback(eraFallback),
    tools: tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: (t.inputSchema ?? { type: "object" }) as Record<string, unknown>,
      request: (t.request ?? null) as ToolRequest | null,
      annotations: (t.annotations ?? null) as ToolAnnotations | null,
      outputSchema: (t.outputSchema ?? null) as Record<string, unknown> | null,
      response: (t.response ?? null) as ToolResponseShape | null,
      approval: approvalView(t.approvalState, t.approvedDefinition),
    })),
  };
}

/** A stored tool's wait for approval (lib/connectors/tool-approval.ts); null when approved. */
export function approvalView(state: string | null, approved: Prisma.JsonValue): ToolApprovalView | null {
  if (state !== "changed" && state !== "new") return null;
  return { state, approved: state === "changed" && approved && typeof approved === "object" ? (approved as unknown as ApprovedDefinition) : null };
}
