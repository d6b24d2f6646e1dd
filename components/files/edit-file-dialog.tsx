"use client";

import { Pencil } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { FileView, Visibility } from "@/components/files/files-api";
import { useFileWrites } from "@/components/files/file-writes";
import { parseTags, tagsProblem } from "@/components/files/format";
import { VisibilityField } from "@/components/files/visibility-field";

function EditForm({ file, onDone }: { file: FileView; onDone: () => void }) {
  const router = useRouter();
  const writes = useFileWrites();
  const [name, setName] = useState(file.name);
  const [tagsText, setTagsText] = useState(file.tags.join(", "));
  const [visibility, setVisibility] = useState<Visibility>(file.visibility);
  const [errors, setErrors] = useState<{ name?: string; tags?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const tags = parseTags(tagsText);
    const next = { name: name.trim() ? undefined : "Give the file a name.", tags: tagsProblem(tags) ?? undefined };
    setErrors(next);
    if (next.name || next.tags) return;
    setSaving(true);
    const result = await writes.updateFile(file.id, { name: name.trim(), tags, visibility });
    setSaving(false);
    if (!result.ok) return setErrors({ form: result.error, name: result.fieldErrors?.name, tags: result.fieldErrors?.tags });
    toast.success(`Saved ${name.trim()}`);
    router.refresh();
    onDone();
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      {errors.form && <Alert>{errors.form}</Alert>}
      <Field id={`edit-name-${file.id}`} label="Name" error={errors.name}>
        {(control) => <Input {...control} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
      </Field>
      <Field id={`edit-tags-${file.id}`} label="Tags" hint="Separate tags with commas. Leave empty for none." error={errors.tags}>
        {(control) => <Input {...control} value={tagsText} onChange={(e) => setTagsText(e.target.value)} autoComplete="off" />}
      </Field>
      <VisibilityField value={visibility} onChange={setVisibility} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving} aria-disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}

/** Rename, retag or share/unshare one of your files (PATCH /api/v1/files/{id}). */
export function EditFileDialog({ file }: { file: FileView }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="ghost" size="icon" aria-label={`Edit ${file.name}`} title="Rename, tags, visibility">
          <Pencil aria-hidden />
        </Button>
      </DialogTrigger>
      <DialogContent title={`Edit ${file.name}`} description="Its files:// URI stays the same.">
        <EditForm file={file} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}
