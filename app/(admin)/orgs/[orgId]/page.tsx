import { redirect } from "next/navigation";
import { requireOrg } from "@/app/(admin)/_lib/context";

/** An organization opens on its connectors (admins) or on the overview (members). */
export default async function OrgPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { org, isAdmin } = await requireOrg((await params).orgId);
  redirect(isAdmin ? `/orgs/${org.id}/connectors` : "/");
}
