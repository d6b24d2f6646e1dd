import type { Caller } from "@/lib/auth/caller";
import { db } from "@/lib/db/client";
import { NotFoundError } from "@/lib/errors";
import type { Page } from "@/lib/api/pagination";
import type { ListArgs } from "@/lib/api/list-query";
import { managedConnectorWhere } from "@/lib/connectors/managed-connector";
import { connectorSelect, type ConnectorView, toConnectorView } from "@/lib/connectors/connector-view";
import type { ListedToolView } from "@/lib/connectors/list-connector-tools";
import type { ToolListQuery } from "@/lib/connectors/schemas";

/**
 * A connector's page in the console needs its tools twice over: the whole set (the http tool
 * editor, the count, the version the editor sends back) and one searched, sorted page of them
 * (the table). Both come from one read here instead of a second query for the page.
 */

const withToolIds = {
  ...connectorSelect,
  tools: { ...connectorSelect.tools, select: { ...connectorSelect.tools.select, id: true, position: true } },
};

export interface ConnectorWithTools {
  /** The connector exactly as the API answers it (its ETag is computed from this). */
  connector: ConnectorView;
  /** The same tools with their ids and positions, in the connector's order. */
  tools: ListedToolView[];
}

/** A connector the caller manages with its tools, in one query; 404 like getConnector. */
export async function getConnectorWithTools(caller: Caller, connectorId: string): Promise<ConnectorWithTools> {
  const row = await db().connector.findFirst({ where: managedConnectorWhere(caller, connectorId), select: withToolIds });
  if (!row) throw new NotFoundError("connector");
  const connector = toConnectorView(row);
  const tools = row.tools.map((t, i) => ({ ...connector.tools[i], id: t.id, position: t.position }));
  return { connector, tools };
}

type Sorted = Pick<ListedToolView, "id" | "name" | "position">;
const byId = (a: Sorted, b: Sorted) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byName = (a: Sorted, b: Sorted) => (a.name < b.name ? -1 : a.name > b.name ? 1 : byId(a, b));
const byPosition = (a: Sorted, b: Sorted) => a.position - b.position || byId(a, b);

/**
 * One page of already-loaded tools with the list endpoint's rules (listConnectorTools): `q` in
 * names, titles and descriptions regardless of case, the connector's order unless sorted, ties by
 * id, and a cursor (the last id seen) that is not in the list answers an empty page. Names compare
 * by code point, where the endpoint uses the database's collation: the README already leaves "how
 * upper and lower case interleave in a name sort" to the collation, and a page's cursor only ever
 * meets the order it was made in.
 */
export function pageLoadedTools(tools: ListedToolView[], query: ListArgs<ToolListQuery>): Page<ListedToolView> {
  const q = query.q?.toLowerCase();
  const found = q ? tools.filter((t) => [t.name, t.title ?? "", t.description].some((s) => s.toLowerCase().includes(q))) : [...tools];
  const ascending = found.sort(query.sort === "name" ? byName : byPosition);
  const ordered = query.order === "desc" ? ascending.reverse() : ascending;
  const start = query.cursor ? ordered.findIndex((t) => t.id === query.cursor) + 1 : 0;
  if (query.cursor && start === 0) return { items: [], nextCursor: null };
  const items = ordered.slice(start, start + query.limit);
  return { items, nextCursor: start + query.limit < ordered.length ? items[items.length - 1].id : null };
}
