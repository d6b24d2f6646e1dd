import { z } from "zod";
import { listQuery } from "@/lib/api/list-query";
import { Name } from "@/lib/schemas/common";

export const FileVisibility = z.enum(["private", "workspace"]);
export const Tags = z.array(z.string().trim().min(1).max(100)).max(50);

/** The multipart form of an upload (documented; the parts are streamed, not parsed by zod). */
export const UploadFileForm = z
  .object({
    file: z.string().meta({ format: "binary", description: "The file's bytes (its part's filename and type are kept)." }),
    tags: Tags.optional().meta({ description: "Repeat the part for several tags." }),
    visibility: FileVisibility.optional().meta({ description: "`private` (default) or `workspace`." }),
  })
  .meta({ id: "UploadFile" });

export const UpdateFileBody = z
  .object({ name: Name.optional(), tags: Tags.optional(), visibility: FileVisibility.optional() })
  .meta({ id: "UpdateFile" });
export type UpdateFileBody = z.infer<typeof UpdateFileBody>;

export const FileQuery = listQuery(["name", "size", "mimeType", "createdAt", "updatedAt"], "file names").extend({ tag: z.string().max(100).optional(), mimeType: z.string().max(255).optional() });
export type FileQuery = z.infer<typeof FileQuery>;

export const StoredFile = z
  .object({
    id: z.string().regex(/^fl_[0-9a-f]{24}$/),
    uri: z.string().meta({ description: "`files://<id>`" }),
    name: z.string(),
    mimeType: z.string(),
    size: z.number().int().nonnegative(),
    sha256: z.string(),
    tags: z.array(z.string()),
    visibility: FileVisibility,
    ownerId: z.string().meta({ description: "The user who uploaded the file." }),
    createdAt: z.string().meta({ format: "date-time" }),
    updatedAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "File" });

export const FileContent = z.string().meta({ format: "binary", description: "The file's bytes, served with its MIME type." });
