import type { ReactNode } from "react";
import { requireOrg } from "@/app/(admin)/_lib/context";

/** Pages of one organization: only its members reach them (everyone else gets the 404 page). */
export default async function OrgLayout({ children, params }: { children: ReactNode; params: Promise<{ orgId: string }> }) {
  await requireOrg((await params).orgId);
  return children;
}
