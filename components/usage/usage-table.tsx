"use client";

import { type ColumnDef, flexRender, getCoreRowModel, getSortedRowModel, type SortingState, useReactTable } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { useState } from "react";
import { Table, TBody, TD, TH, THead } from "@/components/ui/table";
import { focusRing } from "@/components/ui/focus-ring";
import { cn } from "@/components/ui/cn";
import { formatCount, formatMs, formatRate } from "@/components/usage/format-usage";

/** One row of a usage table: a server, connector, tool or user with its numbers. */
export interface UsageTableRow {
  id: string;
  name: string;
  /** A second line under the name (a tool's connector). */
  detail?: string;
  calls: number;
  errors: number;
  errorRate: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

const numeric = (key: "calls" | "errors" | "errorRate" | "p50Ms" | "p95Ms", header: string, format: (v: never) => string): ColumnDef<UsageTableRow> => ({
  accessorKey: key,
  header,
  sortUndefined: "last",
  sortingFn: (a, b) => (a.original[key] ?? -1) - (b.original[key] ?? -1),
  cell: (info) => format(info.getValue() as never),
  meta: { numeric: true },
});

const COLUMNS: ColumnDef<UsageTableRow>[] = [
  {
    accessorKey: "name",
    header: "Name",
    cell: ({ row }) => (
      <span className="block max-w-64 min-w-0">
        <span className="block truncate font-medium" title={row.original.name}>
          {row.original.name}
        </span>
        {row.original.detail && <span className="block truncate text-xs text-zinc-500 dark:text-zinc-400">{row.original.detail}</span>}
      </span>
    ),
  },
  numeric("calls", "Calls", formatCount as (v: never) => string),
  numeric("errorRate", "Error rate", formatRate as (v: never) => string),
  numeric("p50Ms", "p50", formatMs as (v: never) => string),
  numeric("p95Ms", "p95", formatMs as (v: never) => string),
];

/** A table sortable by any column (click a header; most calls first to begin with). */
export function UsageTable({ rows, caption }: { rows: UsageTableRow[]; caption: string }) {
  "use no memo"; // TanStack Table's API returns functions the React Compiler cannot memoize safely
  const [sorting, setSorting] = useState<SortingState>([{ id: "calls", desc: true }]);
  // eslint-disable-next-line react-hooks/incompatible-library -- "use no memo" above: the compiler skips this component
  const table = useReactTable({ data: rows, columns: COLUMNS, getRowId: (r) => r.id, state: { sorting }, onSortingChange: setSorting, getCoreRowModel: getCoreRowModel(), getSortedRowModel: getSortedRowModel() });
  return (
    <Table>
      <caption className="sr-only">{caption} (sortable: activate a column header)</caption>
      <THead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              const isNumeric = (header.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric;
              const Icon = sorted === "asc" ? ArrowUp : sorted === "desc" ? ArrowDown : ArrowUpDown;
              return (
                <TH key={header.id} aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"} className={cn(isNumeric && "text-right")}>
                  <button type="button" onClick={header.column.getToggleSortingHandler()} className={cn("inline-flex items-center gap-1 rounded uppercase", focusRing)}>
                    {flexRender(header.column.columnDef.header, header.getContext())}
                    <Icon aria-hidden className="size-3" />
                  </button>
                </TH>
              );
            })}
          </tr>
        ))}
      </THead>
      <TBody>
        {table.getRowModel().rows.map((row) => (
          <tr key={row.id}>
            {row.getVisibleCells().map((cell) => (
              <TD key={cell.id} className={cn((cell.column.columnDef.meta as { numeric?: boolean } | undefined)?.numeric && "text-right tabular-nums whitespace-nowrap")}>
                {flexRender(cell.column.columnDef.cell, cell.getContext())}
              </TD>
            ))}
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
