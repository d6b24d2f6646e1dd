import "server-only";
import { redirect } from "next/navigation";
import { currentPlace } from "@/app/(admin)/_lib/context";

/**
 * Short links (`/connectors`, `/servers`, …): open the section in the organization or
 * workspace used last, or the overview when there is none yet.
 */
export async function redirectToSection(kind: "org" | "workspace", section: string): Promise<never> {
  const { org, workspace } = await currentPlace();
  if (kind === "org" && org) redirect(`/orgs/${org.id}/${section}`);
  if (kind === "workspace" && workspace) redirect(`/w/${workspace.id}/${section}`);
  redirect("/");
}
