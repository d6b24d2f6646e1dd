"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { DropZone } from "@/components/files/drop-zone";
import type { Visibility } from "@/components/files/files-api";
import { formatBytes, parseTags, tagsProblem } from "@/components/files/format";
import { UploadItemRow } from "@/components/files/upload-item";
import { useUploads } from "@/components/files/use-uploads";
import { VisibilityField } from "@/components/files/visibility-field";

/**
 * Upload panel: tags and visibility for the next files, the drop zone / picker, and one row
 * with a progress bar per file. A finished upload refreshes the list below.
 */
export function FileUploader({ workspaceId, workspaceName, maxUploadBytes }: { workspaceId: string; workspaceName: string; maxUploadBytes: number }) {
  const router = useRouter();
  const [tagsText, setTagsText] = useState("");
  const [visibility, setVisibility] = useState<Visibility>("private");
  const [tagsError, setTagsError] = useState<string>();
  const [announcement, setAnnouncement] = useState("");
  const uploads = useUploads(workspaceId, maxUploadBytes, { onUploaded: () => router.refresh(), announce: setAnnouncement });

  const addFiles = (files: File[], skippedFolders: number) => {
    const tags = parseTags(tagsText);
    const problem = tagsProblem(tags);
    setTagsError(problem ?? undefined);
    if (problem) {
      setAnnouncement(`Nothing was uploaded: ${problem}`);
      return;
    }
    if (files.length > 0) uploads.add(files, { tags, visibility });
    const folders = skippedFolders > 0 ? ` ${skippedFolders} folder${skippedFolders > 1 ? "s were" : " was"} skipped: drop the files inside instead.` : "";
    const fitting = files.filter((file) => file.size <= maxUploadBytes).length;
    const refused = files.length - fitting;
    const tooLarge = refused > 0 ? ` ${refused} file${refused === 1 ? " is" : "s are"} over the upload limit of ${formatBytes(maxUploadBytes)} and not sent.` : "";
    setAnnouncement(`${fitting} file${fitting === 1 ? "" : "s"} uploading.${tooLarge}${folders}`);
  };
  const finished = uploads.items.some((item) => item.status !== "uploading" && item.status !== "processing");

  return (
    <Card aria-labelledby="upload-title">
      <CardHeader>
        <CardTitle id="upload-title">Upload files</CardTitle>
        <CardDescription>
          Files land in {workspaceName}. Set tags and who can see them first; they apply to the files you add next.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-4 md:grid-cols-2">
          <Field id="upload-tags" label="Tags" hint="Separate tags with commas, e.g. invoices, 2026." error={tagsError}>
            {(control) => (
              <Input {...control} value={tagsText} onChange={(e) => setTagsText(e.target.value)} placeholder="invoices, 2026" autoComplete="off" />
            )}
          </Field>
          <VisibilityField value={visibility} onChange={setVisibility} />
        </div>
        <DropZone onFiles={addFiles} hint={`Several files at once, up to ${formatBytes(maxUploadBytes)} each.`} />
        <p role="status" className="sr-only">
          {announcement}
        </p>
        {uploads.items.length > 0 && (
          <section aria-labelledby="uploads-title" className="grid gap-2">
            <div className="flex items-center justify-between gap-2">
              <h3 id="uploads-title" className="text-sm font-semibold">
                Uploads
              </h3>
              {finished && (
                <Button type="button" variant="ghost" size="sm" onClick={uploads.clearFinished}>
                  Clear finished
                </Button>
              )}
            </div>
            <ul className="grid gap-2">
              {uploads.items.map((item) => (
                <UploadItemRow
                  key={item.key}
                  item={item}
                  onCancel={() => uploads.cancel(item.key)}
                  onRetry={() => uploads.retry(item)}
                  onDismiss={() => uploads.dismiss(item.key)}
                />
              ))}
            </ul>
          </section>
        )}
      </CardContent>
    </Card>
  );
}
