import { Resolver } from "node:dns/promises";
import { setting } from "@/lib/config/settings";

/**
 * The TXT records of one name, each record's strings joined (a long value is split into
 * 255-octet strings on the wire). Servers: SSO_DNS_SERVERS, else the system's resolvers.
 */

export type TxtLookup = { ok: true; records: string[] } | { ok: false; reason: "none" | "unreachable" };

/** Answers that say the name or its TXT records do not exist: nothing was published (yet). */
const NO_RECORD = new Set(["ENODATA", "ENOTFOUND", "NXDOMAIN"]);

export async function lookUpTxtRecords(name: string): Promise<TxtLookup> {
  // A few seconds at most: an admin is waiting on the Verify button.
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  const servers = setting("SSO_DNS_SERVERS");
  if (servers.length) resolver.setServers(servers);
  try {
    const records = await resolver.resolveTxt(name);
    return { ok: true, records: records.map((chunks) => chunks.join("")) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    return { ok: false, reason: NO_RECORD.has(code) ? "none" : "unreachable" };
  }
}
