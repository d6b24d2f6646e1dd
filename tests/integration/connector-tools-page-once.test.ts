import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/caller";
import { getConnector } from "@/lib/connectors/connectors";
import { listConnectorTools } from "@/lib/connectors/list-connector-tools";
import { getConnectorWithTools, pageLoadedTools } from "@/lib/connectors/page-loaded-tools";
import { createHttpConnector, createTenant } from "@/tests/helpers/factories";

/**
 * The console's tools page reads a connector and its tools once and pages the table from that
 * read: every page it shows is the page the list endpoint answers for the same URL parameters.
 */

const userCaller = (userId: string): Caller => ({ kind: "user", userId, apiKey: null });

describe("a connector's tools, read once for the console", () => {
  it("gives the API's connector (same JSON, so the same version) and, per query, the list endpoint's page", async () => {
    const t = await createTenant();
    const names = ["list_orders", "get_customer", "delete_order", "find_customer", "archive_order", "merge_customers", "ping"];
    const id = await createHttpConnector(t, "CRM", names);
    await db().tool.updateMany({ where: { connectorId: id, orgId: t.org.id, name: "ping" }, data: { title: "Health ORDER check" } });
    await db().tool.updateMany({ where: { connectorId: id, orgId: t.org.id, name: "find_customer" }, data: { description: "Search people by e-mail" } });
    const caller = userCaller(t.admin.user.id);

    const { connector, tools } = await getConnectorWithTools(caller, id);
    expect(connector).toEqual(await getConnector(caller, id));
    expect(tools.map((x) => x.name)).toEqual(names);

    const queries = [
      {},
      { q: "order" },
      { q: "E-MAIL" },
      { sort: "name" as const },
      { sort: "name" as const, order: "desc" as const },
      { order: "desc" as const },
      { sort: "position" as const, order: "desc" as const, q: "customer" },
    ];
    for (const query of queries) {
      for (const limit of [2, 3, 50]) {
        let cursor: string | undefined;
        do {
          const args = { ...query, limit, cursor };
          const expected = await listConnectorTools(caller, id, args);
          const shown = pageLoadedTools(tools, args);
          expect({ args, page: shown }).toEqual({ args, page: expected });
          cursor = shown.nextCursor ?? undefined;
        } while (cursor);
      }
    }
  });

  it("answers an empty page for a cursor that is not one of the connector's tools, as the endpoint does", async () => {
    const t = await createTenant();
    const id = await createHttpConnector(t, "CRM", ["a_tool", "b_tool"]);
    const other = await createHttpConnector(t, "Other", ["x_tool"]);
    const caller = userCaller(t.admin.user.id);
    const { tools } = await getConnectorWithTools(caller, id);
    const foreign = (await getConnectorWithTools(caller, other)).tools[0].id;
    expect(pageLoadedTools(tools, { limit: 50, cursor: foreign })).toEqual({ items: [], nextCursor: null });
    expect(await listConnectorTools(caller, id, { limit: 50, cursor: foreign })).toEqual({ items: [], nextCursor: null });
  });

  it("is 404 for a member, who does not manage connectors", async () => {
    const t = await createTenant();
    const id = await createHttpConnector(t, "CRM", ["a_tool"]);
    await expect(getConnectorWithTools(userCaller(t.member.user.id), id)).rejects.toMatchObject({ code: "not_found" });
  });
});
