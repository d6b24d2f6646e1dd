import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ChevronLeft } from "lucide-react";
import { orNotFound, requireWorkspace } from "@/app/(admin)/_lib/context";
import { getSkill } from "@/lib/skills/skills";
import { etagOf } from "@/lib/api/if-match";
import { listConnectors } from "@/lib/connectors/connectors";
import { SkillEditor } from "@/app/(admin)/w/[workspaceId]/skills/skill-form";

export const metadata: Metadata = { title: "Skill" };

export default async function SkillPage({ params }: { params: Promise<{ workspaceId: string; skillId: string }> }) {
  const { workspaceId, skillId } = await params;
  const { workspace, org, caller } = await requireWorkspace(workspaceId, { admin: true });
  const skill = await orNotFound(getSkill(caller, skillId));
  if (skill.workspaceId !== workspace.id) notFound();
  const connectors = await listConnectors(caller, org.id, { limit: 200 });
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <div className="grid gap-2">
        <Link href={`/w/${workspace.id}/skills`} className="inline-flex w-fit items-center gap-1 text-sm text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400">
          <ChevronLeft aria-hidden className="size-4" />
          Skills
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight">{skill.name}</h1>
      </div>
      <SkillEditor
        workspaceId={workspace.id}
        connectors={connectors.items.map((c) => ({ id: c.id, name: c.name }))}
        skill={{ id: skill.id, name: skill.name, content: skill.content, connectorId: skill.connectorId, applied: skill.applied }}
        version={etagOf(skill)}
      />
    </div>
  );
}
