/**
 * The tenant of the MCP benchmark as plain data, the same on every run (no randomness): 50
 * http connectors of 20 tools each with realistic JSON Schemas (typed properties, nested
 * objects, enums, descriptions), 4 stored resources of 1–4 KB per connector (200), 30 applied
 * skills and the server's own instructions, sized so that tools/list is near 0.9 MB and the
 * composed instructions near 6 KB. bench/mcp/seed-tenant.ts stores it through lib/.
 */

export interface BenchTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  request: { method: "GET" | "POST" | "PATCH" | "DELETE"; path: string };
}

export interface BenchConnector {
  name: string;
  domain: string;
  instructions: string;
  tools: BenchTool[];
  resources: { uri: string; name: string; description: string; text: string }[];
}

export interface BenchSkill {
  name: string;
  content: string;
  /** Index of the connector it is scoped to, or null for the whole workspace. */
  connector: number | null;
}

export interface TenantData {
  serverName: string;
  serverInstructions: string;
  connectors: BenchConnector[];
  skills: BenchSkill[];
}

const DOMAINS = [
  "crm", "billing", "tickets", "inventory", "shipping", "payroll", "people", "calendar", "docs", "wiki",
  "chat", "mail", "marketing", "analytics", "search", "storage", "cdn", "dns", "monitoring", "logging",
  "alerts", "deploys", "builds", "repos", "issues", "sprints", "contracts", "invoices", "expenses", "assets",
  "fleet", "maintenance", "facilities", "bookings", "events", "surveys", "feedback", "learning", "recruiting", "onboarding",
  "compliance", "audits", "risks", "vendors", "procurement", "warehouse", "orders", "catalog", "pricing", "loyalty",
];

const NOUNS = ["accounts", "contacts", "records", "items", "notes", "attachments", "comments", "reports", "schedules", "templates", "teams", "projects", "tasks"];
const VERBS = ["list", "get", "create", "update", "delete"] as const;
const STATUSES = ["draft", "active", "pending_review", "suspended", "archived"];
const COUNTRIES = ["DE", "FR", "GB", "US", "CA", "JP", "BR", "IN", "AU", "ZA"];

const text = (s: string, description: string, extra: Record<string, unknown> = {}) => ({ type: s, description, ...extra });

function addressSchema(noun: string) {
  return {
    type: "object",
    description: `Postal address of the ${noun}.`,
    properties: {
      street: text("string", "Street and house number.", { maxLength: 200 }),
      city: text("string", "City or locality.", { maxLength: 100 }),
      postalCode: text("string", "Postal code.", { pattern: "^[A-Za-z0-9 -]{2,12}$" }),
      country: text("string", "ISO 3166-1 alpha-2 country code.", { enum: COUNTRIES }),
    },
    required: ["city", "country"],
  };
}

/** The writable fields; an update leaves the address out (it is set when creating). */
function fieldsSchema(domain: string, noun: string, withAddress = true) {
  return {
    name: text("string", `Display name, unique in ${domain}.`, { minLength: 1, maxLength: 120 }),
    status: text("string", `Lifecycle status of the ${noun}.`, { enum: STATUSES }),
    priority: text("integer", "Priority from 1 (highest) to 5 (lowest).", { minimum: 1, maximum: 5, default: 3 }),
    tags: { type: "array", description: "Free-form labels, lowercase.", items: { type: "string", maxLength: 40 }, maxItems: 20, uniqueItems: true },
    owner: {
      type: "object",
      description: `The person responsible for the ${noun}.`,
      properties: { email: text("string", "Work email address.", { format: "email" }), team: text("string", "Team slug.") },
      required: ["email"],
    },
    ...(withAddress ? { address: addressSchema(noun) } : {}),
  };
}

function schemaFor(verb: (typeof VERBS)[number], domain: string, noun: string): Record<string, unknown> {
  const id = text("string", `Id in ${domain} (prefix "${noun.slice(0, 3)}_").`, { pattern: "^[a-z]{3}_[A-Za-z0-9]{4,32}$" });
  switch (verb) {
    case "list":
      return {
        type: "object",
        properties: {
          query: text("string", `Full-text search over the ${noun}' names and notes.`, { maxLength: 200 }),
          status: text("string", "Only return entries in this status.", { enum: STATUSES }),
          limit: text("integer", "Page size.", { minimum: 1, maximum: 200, default: 50 }),
          cursor: text("string", "Opaque cursor from the previous page's nextCursor."),
          sort: {
            type: "object",
            description: "Sort order of the page.",
            properties: { field: text("string", "Field to sort by.", { enum: ["name", "createdAt", "updatedAt", "priority"] }), direction: text("string", "Sort direction.", { enum: ["asc", "desc"] }) },
          },
          updatedAfter: text("string", "Only entries changed after this instant (RFC 3339).", { format: "date-time" }),
        },
      };
    case "get":
      return {
        type: "object",
        properties: { id, expand: { type: "array", description: "Related objects to embed in the answer.", items: { type: "string", enum: ["owner", "history", "attachments", "links"] } } },
        required: ["id"],
      };
    case "create":
      return { type: "object", properties: fieldsSchema(domain, noun), required: ["name", "owner"] };
    case "update":
      return { type: "object", properties: { id, ...fieldsSchema(domain, noun, false) }, required: ["id"] };
    case "delete":
      return {
        type: "object",
        properties: { id, reason: text("string", "Why it is deleted (kept in the audit trail).", { maxLength: 500 }), hard: text("boolean", "Delete at once instead of moving to the trash for 30 days.", { default: false }) },
        required: ["id"],
      };
  }
}

const REQUESTS: Record<(typeof VERBS)[number], (noun: string) => BenchTool["request"]> = {
  list: (noun) => ({ method: "GET", path: `/${noun}` }),
  get: (noun) => ({ method: "GET", path: `/${noun}/{id}` }),
  create: (noun) => ({ method: "POST", path: `/${noun}` }),
  update: (noun) => ({ method: "PATCH", path: `/${noun}/{id}` }),
  delete: (noun) => ({ method: "DELETE", path: `/${noun}/{id}` }),
};

const DESCRIPTIONS: Record<(typeof VERBS)[number], (domain: string, noun: string) => string> = {
  list: (d, n) => `Lists the ${n} of the ${d} API, newest first, a page at a time; follow nextCursor. Read-only.`,
  get: (d, n) => `Fetches one of the ${n} of the ${d} API by id, with the objects named in expand embedded.`,
  create: (d, n) => `Creates one of the ${n} in the ${d} API and answers its new id. Not idempotent.`,
  update: (d, n) => `Changes fields of one of the ${n} in the ${d} API; fields left out keep their value.`,
  delete: (d, n) => `Deletes one of the ${n} of the ${d} API (kept in the trash 30 days unless hard).`,
};

function connectorTools(domain: string, index: number): BenchTool[] {
  const nouns = [0, 1, 2, 3].map((k) => NOUNS[(index * 4 + k) % NOUNS.length]);
  return nouns.flatMap((noun) =>
    VERBS.map((verb) => ({
      name: `${domain}_${verb}_${noun}`,
      description: DESCRIPTIONS[verb](domain, noun),
      inputSchema: schemaFor(verb, domain, noun),
      request: REQUESTS[verb](noun),
    })),
  );
}

/** 1–4 KB of markdown, different for every resource. */
function resourceText(domain: string, n: number): string {
  const bytes = 1024 + ((n * 797) % 3072);
  const paragraph = (k: number) => `Rule ${k} of the ${domain} guide ${n}: requests over ${k * 10} items are paged, errors carry a code and a hint. `;
  let body = `# ${domain} guide ${n}\n\n`;
  for (let k = 1; body.length < bytes; k++) body += paragraph(k) + (k % 4 === 0 ? "\n\n" : "");
  return body.slice(0, bytes);
}

function connector(domain: string, index: number): BenchConnector {
  return {
    name: `${domain[0].toUpperCase()}${domain.slice(1)} API`,
    domain,
    instructions: `Ids of ${domain} start with a 3-letter prefix.`,
    tools: connectorTools(domain, index),
    resources: [0, 1, 2, 3].map((k) => ({
      uri: `${domain}://guides/${k}`,
      name: `${domain} guide ${k}`,
      description: `Conventions of the ${domain} API, part ${k + 1} of 4.`,
      text: resourceText(domain, index * 4 + k),
    })),
  };
}

function skills(): BenchSkill[] {
  return Array.from({ length: 30 }, (_, i) => ({
    name: `Playbook ${String(i + 1).padStart(2, "0")}`,
    content: `Touching ${DOMAINS[i]} and ${DOMAINS[(i + 7) % 50]}: read both guides, confirm writes.`,
    // Every third skill is scoped to one connector: composition then filters by visibility.
    connector: i % 3 === 0 ? i : null,
  }));
}

const SERVER_INSTRUCTIONS = [
  "# Operations assistant",
  "",
  "You act for one member of the operations team. Every tool reaches a production API: prefer read-only",
  "tools (list_*, get_*) to answer questions, and ask before any create_*, update_* or delete_* call.",
  "Quote ids exactly as the APIs return them. When an answer is paged, say how many pages there are",
  "before fetching more than two. Dates are RFC 3339 in UTC; show them in the user's time zone.",
  "Never paste secrets, tokens or personal data of third parties into a tool argument.",
  "If a tool answers an error, show its code and hint and do not retry a write on your own.",
  "The guides (resources <domain>://guides/N) hold each API's conventions; read them when unsure.",
].join("\n");

export function buildTenantData(): TenantData {
  if (DOMAINS.length !== 50) throw new Error(`expected 50 domains, got ${DOMAINS.length}`);
  return {
    serverName: "Operations",
    serverInstructions: SERVER_INSTRUCTIONS,
    connectors: DOMAINS.map(connector),
    skills: skills(),
  };
}
