"use client";

import { useRouter } from "next/navigation";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

/** Which connector's manual layer to edit (kept in the URL: ?connector=<id>). */
export function ConnectorChooser({ orgId, connectors, value }: { orgId: string; connectors: { id: string; name: string }[]; value: string }) {
  const router = useRouter();
  return (
    <div className="grid max-w-sm gap-1.5">
      <Label htmlFor="manual-connector">Connector</Label>
      <Select id="manual-connector" value={value} onChange={(e) => router.push(`/orgs/${orgId}/graph?connector=${e.target.value}`, { scroll: false })}>
        {connectors.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Select>
    </div>
  );
}
