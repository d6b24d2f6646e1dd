import { describe, expect, it } from "vitest";
import { buildKnowledgeGraph, deriveStaticGraph } from "@/lib/knowledge-graph/derive-static-graph";
import { entityOfIdField, entityOfToolName, singular } from "@/lib/knowledge-graph/entity-names";
import { renderGraphMarkdown } from "@/lib/knowledge-graph/render-graph-markdown";
import { connector, roleView, snapshot, unrestrictedView } from "@/tests/helpers/snapshot-fixtures";

const crm = () =>
  connector("crm", {
    name: "CRM",
    tools: ["get_customer", "list_customers", ["update_customer", ["id", "email"]], ["delete_customer", ["customer_id"]]],
    graph: {
      entities: [{ key: "customer", label: "Client", description: "A paying client." }],
      relations: [],
    },
  });
const billing = () =>
  connector("billing", {
    name: "Billing",
    tools: [["list_invoices", ["customer_id", "status"]], ["createInvoice", ["customerId", "amount"]], ["get_payment", ["invoiceRef"]]],
  });

describe("Knowledge graph: entities from tool names and parameters", () => {
  it.each([
    ["get_customer", "customer"],
    ["list_customers", "customer"],
    ["listCustomers", "customer"],
    ["customers.list", "customer"],
    ["get-support-ticket", "support_ticket"],
    ["get_customer_by_email", "customer"],
    ["list_categories", "category"],
    ["search_addresses", "address"],
    ["get_order_status", "order_status"],
  ])("%s names the entity %s", (name, key) => {
    expect(entityOfToolName(name)?.key).toBe(key);
  });

  it.each(["search", "ping", "customer", "run_report_now"])("%s names no entity", (name) => {
    expect(entityOfToolName(name)).toBeNull();
  });

  it("delete and count tools take their entity but do not return it", () => {
    expect(entityOfToolName("delete_customer")).toEqual({ key: "customer", returns: false });
    expect(entityOfToolName("get_customer")).toEqual({ key: "customer", returns: true });
  });

  it.each([
    ["customer_id", "customer"],
    ["customerId", "customer"],
    ["customerID", "customer"],
    ["customer_ids", "customer"],
    ["customerReference", "customer"],
    ["customerRef", "customer"],
    ["customer_ref", "customer"],
    ["billingAccountId", "billing_account"],
  ])("the id-like field %s points at %s", (field, key) => {
    expect(entityOfIdField(field)).toBe(key);
  });

  it.each(["id", "email", "api_key", "identity", "status"])("the field %s points at no other entity", (field) => {
    expect(entityOfIdField(field)).toBeNull();
  });

  it("singular forms", () => {
    expect(["orders", "categories", "boxes", "status", "address", "analysis", "ids"].map(singular)).toEqual([
      "order", "category", "box", "status", "address", "analysis", "ids",
    ]);
  });
});

describe("Knowledge graph: static layer derived from the connectors' tools", () => {
  it("id-like fields become references edges between entities, across connectors too", () => {
    const graph = deriveStaticGraph([crm(), billing()]);
    expect(graph.entities.map((e) => [e.key, e.connectorName])).toEqual([
      ["customer", "CRM"],
      ["invoice", "Billing"],
      ["payment", "Billing"],
    ]);
    expect(graph.relations).toEqual([
      {
        from: "invoice",
        to: "customer",
        kind: "references",
        description: "`billing_createInvoice` takes `customerId`; `billing_list_invoices` takes `customer_id`",
        source: "derived",
      },
      { from: "payment", to: "invoice", kind: "references", description: "`billing_get_payment` takes `invoiceRef`", source: "derived" },
    ]);
  });

  it("lists the tools that take or return each entity, with their connector", () => {
    const customer = deriveStaticGraph([crm(), billing()]).entities.find((e) => e.key === "customer")!;
    expect(customer.tools).toEqual([
      { tool: "billing_createInvoice", connectorName: "Billing", use: "takes", field: "customerId" },
      { tool: "billing_list_invoices", connectorName: "Billing", use: "takes", field: "customer_id" },
      { tool: "crm_delete_customer", connectorName: "CRM", use: "takes", field: "customer_id" },
      { tool: "crm_get_customer", connectorName: "CRM", use: "returns" },
      { tool: "crm_list_customers", connectorName: "CRM", use: "returns" },
      { tool: "crm_update_customer", connectorName: "CRM", use: "returns" },
      { tool: "crm_update_customer", connectorName: "CRM", use: "takes", field: "id" },
    ]);
  });

  it("an entity named by a tool is owned by that connector even when another connector's parameter names it first", () => {
    const graph = deriveStaticGraph([billing(), crm()]);
    expect(graph.entities.find((e) => e.key === "customer")?.connectorName).toBe("CRM");
  });
});

describe("Knowledge graph: manual entries win over derived ones", () => {
  it("a manual entity replaces the derived one with the same key and keeps its tools", () => {
    const customer = buildKnowledgeGraph([crm(), billing()]).entities.find((e) => e.key === "customer")!;
    expect(customer).toMatchObject({ label: "Client", description: "A paying client.", connectorName: "CRM", source: "manual" });
    expect(customer.tools.length).toBe(7);
  });

  it("a manual relation replaces the derived one with the same (from, to, kind); new ones are added", () => {
    const b = billing();
    b.graph = {
      entities: [{ key: "refund", label: "Refund", description: null }],
      relations: [
        { fromKey: "invoice", toKey: "customer", kind: "references", description: "The customer billed." },
        { fromKey: "refund", toKey: "payment", kind: "reverses", description: null },
      ],
    };
    const graph = buildKnowledgeGraph([crm(), b]);
    expect(graph.relations.map((r) => [r.from, r.to, r.kind, r.description, r.source])).toEqual([
      ["invoice", "customer", "references", "The customer billed.", "manual"],
      ["payment", "invoice", "references", "`billing_get_payment` takes `invoiceRef`", "derived"],
      ["refund", "payment", "reverses", null, "manual"],
    ]);
  });

  it("between two connectors' manual layers, the first in assignment order wins", () => {
    const b = billing();
    b.graph = { entities: [{ key: "customer", label: "Debtor", description: null }], relations: [] };
    expect(buildKnowledgeGraph([crm(), b]).entities.find((e) => e.key === "customer")?.label).toBe("Client");
    expect(buildKnowledgeGraph([b, crm()]).entities.find((e) => e.key === "customer")?.label).toBe("Debtor");
  });
});

describe("Knowledge graph: nothing from a connector the caller cannot use appears, not even as the far end of an edge", () => {
  const hr = () =>
    connector("hr", {
      name: "Secret HR",
      tools: [["get_salary", ["employee_id"]]],
      graph: { entities: [{ key: "employee", label: "Employee", description: "HR only" }], relations: [] },
    });
  const withEdgeToHidden = () => {
    const b = billing();
    b.graph = { entities: [], relations: [{ fromKey: "invoice", toKey: "employee", kind: "approved_by", description: null }] };
    return b;
  };

  it("a connector the role denies contributes no entity, tool, owner or edge", () => {
    const snap = snapshot([crm(), withEdgeToHidden(), hr()], { knowledgeGraphEnabled: true });
    const view = roleView(snap, [["billing", "list_invoices"], ["billing", "createInvoice"], ["billing", "get_payment"]]);
    const graph = buildKnowledgeGraph(view.connectors);
    expect(graph.entities.map((e) => e.key)).toEqual(["customer", "invoice", "payment"]);
    const customer = graph.entities.find((e) => e.key === "customer")!;
    expect(customer).toMatchObject({ label: "Customer", connectorName: "Billing", source: "derived" });
    expect(graph.relations.map((r) => `${r.from}>${r.to}`)).toEqual(["invoice>customer", "payment>invoice"]);
    const markdown = renderGraphMarkdown(graph);
    for (const hidden of ["CRM", "crm_", "Client", "paying", "Secret HR", "employee", "salary", "approved_by"]) expect(markdown).not.toContain(hidden);
  });

  it("tools the role denies within a usable connector contribute nothing", () => {
    const snap = snapshot([crm(), billing()]);
    const graph = buildKnowledgeGraph(roleView(snap, [["crm", "get_customer"], ["billing", "get_payment"]]).connectors);
    expect(graph.entities.map((e) => e.key)).toEqual(["customer", "invoice", "payment"]);
    expect(graph.entities.flatMap((e) => e.tools.map((t) => t.tool))).toEqual(["crm_get_customer", "billing_get_payment", "billing_get_payment"]);
    expect(graph.relations.map((r) => `${r.from}>${r.to}`)).toEqual(["payment>invoice"]);
  });

  it("a manual relation whose end is no visible entity is dropped", () => {
    const graph = buildKnowledgeGraph(unrestrictedView(snapshot([withEdgeToHidden()])).connectors);
    expect(graph.relations.some((r) => r.kind === "approved_by")).toBe(false);
  });
});

describe("Knowledge graph markdown: entities with their owning connector and tools, then relations with kind and description", () => {
  it("renders entities, then relations", () => {
    const markdown = renderGraphMarkdown(buildKnowledgeGraph([crm(), billing()]));
    expect(markdown).toContain(
      [
        "### Client (`customer`)",
        "",
        "- Connector: CRM",
        "- Description: A paying client.",
        "- Tools:",
        "  - `billing_createInvoice` (Billing) takes it as `customerId`",
      ].join("\n"),
    );
    expect(markdown).toContain("  - `crm_get_customer` (CRM) returns it");
    expect(markdown).toContain("- Invoice (`invoice`) → Client (`customer`) — `references`: `billing_createInvoice` takes `customerId`; `billing_list_invoices` takes `customer_id`");
    expect(markdown.indexOf("## Entities")).toBeLessThan(markdown.indexOf("## Relations"));
    expect(markdown.indexOf("(`customer`)")).toBeLessThan(markdown.indexOf("(`invoice`)"));
  });

  it("is deterministic: the same bytes whatever the order of tools and manual rows", () => {
    const a = [crm(), billing()];
    const b = [crm(), billing()];
    b[0].tools.reverse();
    b[1].tools.reverse();
    b[1].graph = { entities: [], relations: [] };
    a[1].graph = { entities: [], relations: [] };
    expect(renderGraphMarkdown(buildKnowledgeGraph(b))).toBe(renderGraphMarkdown(buildKnowledgeGraph(a)));
    expect(renderGraphMarkdown(buildKnowledgeGraph(a))).toBe(renderGraphMarkdown(buildKnowledgeGraph([crm(), billing()])));
  });

  it("an empty graph says so", () => {
    const markdown = renderGraphMarkdown(buildKnowledgeGraph([connector("x", { tools: ["ping"] })]));
    expect(markdown).toContain("No entities.");
    expect(markdown).toContain("No relations.");
  });

  it("keeps admin-written multi-line descriptions on one list line", () => {
    const c = connector("c", { tools: ["get_order"], graph: { entities: [{ key: "order", label: "Order", description: "line one\nline two" }], relations: [] } });
    expect(renderGraphMarkdown(buildKnowledgeGraph([c]))).toContain("- Description: line one line two");
  });
});
