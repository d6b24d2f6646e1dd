"use server";

import { runAction } from "@/app/(admin)/_lib/run-action";
import { listPaletteObjects } from "@/lib/shell/palette-objects";

/** The servers and connectors the command palette lists, read when it first opens. */
export async function listPaletteObjectsAction() {
  return runAction(async (caller) => (caller.kind === "user" ? listPaletteObjects(caller) : []), { revalidate: false });
}
