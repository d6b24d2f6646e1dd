import Link from "next/link";
import { ShieldAlert } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";

/**
 * An admin page opened by a member of its organization: said plainly (403) instead of a bare
 * 404, with where a member's own things are.
 */
export default function Forbidden() {
  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">You don&apos;t have access to this page</h1>
      <EmptyState icon={ShieldAlert} title="Only owners and admins of the organization can open it">
        The MCP servers you can use, their URLs and your API keys are on{" "}
        <Link href="/me/servers" className="underline">
          My MCP servers
        </Link>
        . If you need more, ask an admin of your organization.
      </EmptyState>
    </div>
  );
}
