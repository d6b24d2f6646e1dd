"use client";

import { Search } from "lucide-react";
import { Input } from "@/components/ui/input";
import { Button } from "@/components/ui/button";

/** The search box of a list: submitting (Enter or the button) puts `q` in the URL. */
export function ListSearch({ label, value, onSearch }: { label: string; value: string; onSearch: (text: string) => void }) {
  return (
    <form
      role="search"
      className="flex w-full max-w-sm gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(String(new FormData(e.currentTarget).get("q") ?? "").trim());
      }}
    >
      <Input key={value} name="q" type="search" defaultValue={value} aria-label={label} placeholder={label} maxLength={200} className="min-w-0 flex-1" />
      <Button type="submit" variant="outline">
        <Search aria-hidden />
        <span className="sr-only sm:not-sr-only">Search</span>
      </Button>
    </form>
  );
}
