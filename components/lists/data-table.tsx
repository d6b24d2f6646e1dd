"use client";

import { type ColumnDef, flexRender, getCoreRowModel, type RowSelectionState, useReactTable } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type ReactNode, useMemo, useState } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Pagination } from "@/components/ui/pagination";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";
import { BulkBar, type BulkAction } from "@/components/lists/bulk-bar";
import { ListSearch } from "@/components/lists/list-search";

/**
 * One table for every list of the console, driven by the server: search, sort and page live in
 * the URL (`q`, `sort`, `order`, `cursor`), so a view is linkable and the lib's list function
 * does the work. Rows arrive rendered (cells are server-rendered nodes); @tanstack/react-table
 * keeps the columns, the sort state and the row selection for bulk actions.
 */

export interface DataColumn {
  id: string;
  header: string;
  /** Offer sorting by this column (the id is the list's `sort` key). */
  sortable?: boolean;
  className?: string;
  /** Hide below the `sm` breakpoint (390 px wide phones keep the essential columns). */
  wide?: boolean;
}

export interface DataRow {
  id: string;
  /** How the row is named in the selection checkbox and the confirmation. */
  label: string;
  cells: Record<string, ReactNode>;
  /** False: this row cannot be selected (e.g. a revoked key). */
  selectable?: boolean;
  /** `data-*` attributes of the row's `<tr>` (e.g. the object's id, for scripts and tests). */
  data?: Record<`data-${string}`, string>;
}

interface DataTableProps {
  caption: string;
  columns: DataColumn[];
  rows: DataRow[];
  nextCursor: string | null;
  searchLabel: string;
  bulk?: BulkAction;
  /** Query parameters other than the list's (filters), kept across searches and pages. */
  keep?: string[];
  /** False: the page has its own search form (the list still sorts, pages and selects). */
  search?: boolean;
}

function useListUrl() {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const go = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(changes)) if (v) next.set(k, v); else next.delete(k);
    next.delete("cursor"); // a new search or order starts at its first page
    const text = next.toString();
    router.push(text ? `${pathname}?${text}` : pathname);
  };
  return { pathname, params, go };
}

function SortButton({ column, sort, order, onSort }: { column: DataColumn; sort?: string; order: string; onSort: (id: string) => void }) {
  const active = sort === column.id;
  const Icon = !active ? ArrowUpDown : order === "desc" ? ArrowDown : ArrowUp;
  return (
    <button type="button" onClick={() => onSort(column.id)} className={cn("inline-flex items-center gap-1 rounded uppercase", focusRing)}>
      {column.header}
      <Icon aria-hidden className={cn("size-3.5", !active && "opacity-50")} />
      <span className="sr-only">{active ? (order === "desc" ? ", sorted descending" : ", sorted ascending") : ", sort"}</span>
    </button>
  );
}

/** The table's columns: a selection checkbox first when the list has a bulk action. */
function columnDefs(columns: DataColumn[], selectable: boolean): ColumnDef<DataRow>[] {
  const select: ColumnDef<DataRow> = {
    id: "select",
    header: ({ table }) => (
      <Checkbox
        aria-label="Select every row of this page"
        checked={table.getIsAllRowsSelected() ? true : table.getIsSomeRowsSelected() ? "indeterminate" : false}
        onCheckedChange={(v) => table.toggleAllRowsSelected(v === true)}
      />
    ),
    cell: ({ row }) => (
      <Checkbox aria-label={`Select ${row.original.label}`} checked={row.getIsSelected()} disabled={!row.getCanSelect()} onCheckedChange={(v) => row.toggleSelected(v === true)} />
    ),
  };
  const data = columns.map((c): ColumnDef<DataRow> => ({ id: c.id, header: c.header, cell: ({ row }) => row.original.cells[c.id] }));
  return selectable ? [select, ...data] : data;
}

export function DataTable({ caption, columns, rows, nextCursor, searchLabel, bulk, keep = [], search = true }: DataTableProps) {
  "use no memo"; // TanStack Table's API returns functions the React Compiler cannot memoize safely
  const { pathname, params, go } = useListUrl();
  const q = params.get("q") ?? "";
  const sort = params.get("sort") ?? undefined;
  const order = params.get("order") === "desc" ? "desc" : "asc";
  const [rowSelection, setRowSelection] = useState<RowSelectionState>({});
  const onSort = (id: string) => go({ sort: id, order: sort === id && order === "asc" ? "desc" : "asc" });

  const defs = useMemo(() => columnDefs(columns, Boolean(bulk)), [bulk, columns]);
  // eslint-disable-next-line react-hooks/incompatible-library -- "use no memo" above: the compiler skips this component
  const table = useReactTable({
    data: rows,
    columns: defs,
    getRowId: (r) => r.id,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: (row) => row.original.selectable !== false,
    state: { rowSelection },
    onRowSelectionChange: setRowSelection,
  });
  const byId = new Map(columns.map((c) => [c.id, c]));
  const selected = table.getSelectedRowModel().rows.map((r) => r.original);
  const kept = Object.fromEntries([...keep, "q", "sort", "order"].map((k) => [k, params.get(k) ?? undefined]));

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {search && <ListSearch label={searchLabel} value={q} onSearch={(text) => go({ q: text || undefined })} />}
        {bulk && <BulkBar action={bulk} selected={selected} onDone={() => setRowSelection({})} />}
      </div>
      {rows.length === 0 ? (
        <p role="status" className="rounded-lg border border-dashed border-zinc-300 px-4 py-8 text-center text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
          {q ? <>No results for “{q}”.</> : "Nothing on this page."}
        </p>
      ) : (
        <Table>
          <caption className="sr-only">{caption}</caption>
          <THead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((h) => {
                  const column = byId.get(h.column.id);
                  return (
                    <TH
                      key={h.id}
                      aria-sort={column && sort === column.id ? (order === "desc" ? "descending" : "ascending") : undefined}
                      className={cn(h.column.id === "select" && "w-8", column?.className, column?.wide && "hidden sm:table-cell")}
                    >
                      {column?.sortable ? <SortButton column={column} sort={sort} order={order} onSort={onSort} /> : flexRender(h.column.columnDef.header, h.getContext())}
                    </TH>
                  );
                })}
              </tr>
            ))}
          </THead>
          <TBody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} {...row.original.data} data-state={row.getIsSelected() ? "selected" : undefined} className="data-[state=selected]:bg-sky-50 dark:data-[state=selected]:bg-sky-950/30">
                {row.getVisibleCells().map((cell) => {
                  const column = byId.get(cell.column.id);
                  return (
                    <TD key={cell.id} className={cn(column?.className, column?.wide && "hidden sm:table-cell")}>
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </TD>
                  );
                })}
              </tr>
            ))}
          </TBody>
        </Table>
      )}
      <Pagination basePath={pathname} nextCursor={nextCursor} isFirstPage={!params.get("cursor")} params={kept} />
    </div>
  );
}
