import Form from "next/form";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

interface Props {
  orgs: { id: string; name: string; workspaces: { id: string; name: string }[] }[];
  current: string;
}

/**
 * Which workspace's files to show: the user's workspaces grouped by organization. A form with
 * an Open button (not a select that navigates on change, which keyboard users would trigger
 * with every arrow key); /files?workspace=<id> sends it on.
 */
export function WorkspacePicker({ orgs, current }: Props) {
  const count = orgs.reduce((n, org) => n + org.workspaces.length, 0);
  if (count < 2) return null;
  return (
    <Form action="/files" className="flex items-end gap-2">
      <div className="grid gap-1.5">
        <Label htmlFor="files-workspace">Workspace</Label>
        <Select id="files-workspace" name="workspace" defaultValue={current} key={current} className="w-64">
          {orgs
            .filter((org) => org.workspaces.length > 0)
            .map((org) => (
              <optgroup key={org.id} label={org.name}>
                {org.workspaces.map((workspace) => (
                  <option key={workspace.id} value={workspace.id}>
                    {workspace.name}
                  </option>
                ))}
              </optgroup>
            ))}
        </Select>
      </div>
      <Button type="submit" variant="outline">
        Open
      </Button>
    </Form>
  );
}
