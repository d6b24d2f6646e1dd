import Form from "next/form";
import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";

const COMMON_TYPES = [
  "text/plain", "text/csv", "text/markdown", "text/html", "application/json", "application/pdf", "application/xml",
  "application/zip", "image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml",
];

/**
 * "" is the list's own order (lib/files listFiles: upload time, newest first); `sort=createdAt`
 * is the same column, so it is shown as that choice rather than as a second "Upload time".
 */
const SORTS = [["", "Upload time"], ["name", "Name"], ["size", "Size"]] as const;

/**
 * The direction the list is in (lib/api/list-query listOrder): the one asked for, else
 * ascending for a chosen sort and descending (newest first) for the list's own order. The
 * control always sends one, so what it shows is what is applied.
 */
export function appliedOrder(sort: string | undefined, order: string | undefined): "asc" | "desc" {
  if (order === "asc" || order === "desc") return order;
  return sort ? "asc" : "desc";
}

interface Props {
  action: string;
  q?: string;
  sort?: string;
  order?: string;
  tag?: string;
  mimeType?: string;
  /** MIME types seen on this page, offered first. */
  seenTypes: string[];
}

/** Tag and MIME type filters (a GET form: the filters live in the URL, so they survive reloads and links). */
export function FileFilters({ action, q, sort, order, tag, mimeType, seenTypes }: Props) {
  const types = [...new Set([...seenTypes, ...COMMON_TYPES])];
  const filtered = Boolean(tag || mimeType || q);
  return (
    <Form action={action} key={[q, sort, order, tag, mimeType].join("\n")} className="flex flex-wrap items-end gap-3" aria-label="Filter files">
      <div className="grid gap-1.5">
        <Label htmlFor="filter-q">Name</Label>
        <Input id="filter-q" name="q" type="search" defaultValue={q} placeholder="Search names" className="w-48" autoComplete="off" maxLength={200} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="filter-sort">Sort by</Label>
        <Select id="filter-sort" name="sort" defaultValue={sort === "createdAt" ? "" : (sort ?? "")} className="w-36">
          {SORTS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="filter-order">Order</Label>
        <Select id="filter-order" name="order" defaultValue={appliedOrder(sort, order)} className="w-32">
          <option value="asc">Ascending</option>
          <option value="desc">Descending</option>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="filter-tag">Tag</Label>
        <Input id="filter-tag" name="tag" defaultValue={tag} placeholder="Any tag" className="w-48" autoComplete="off" />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="filter-type">Type</Label>
        <Input id="filter-type" name="mimeType" defaultValue={mimeType} placeholder="Any type, e.g. text/csv" list="filter-type-options" className="w-60" autoComplete="off" />
        <datalist id="filter-type-options">
          {types.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
      </div>
      <Button type="submit" variant="secondary">
        Apply filters
      </Button>
      {filtered && (
        <Link href={action} className={buttonVariants({ variant: "ghost" })}>
          Clear filters
        </Link>
      )}
    </Form>
  );
}
