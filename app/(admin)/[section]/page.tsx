import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ADMIN_NAV_ITEMS } from "@/components/shell/nav-items";

/**
 * Placeholder for admin sections that are not built yet. A dedicated page folder
 * (e.g. app/(admin)/connectors/) takes precedence over this dynamic route, so sections replace
 * it one by one without touching this file.
 */

type Params = Promise<{ section: string }>;

function findSection(section: string) {
  return ADMIN_NAV_ITEMS.find((item) => item.href !== "/" && item.href === `/${section}`);
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const item = findSection((await params).section);
  return { title: item?.label ?? "Not found" };
}

export default async function ComingSoonSectionPage({ params }: { params: Params }) {
  const item = findSection((await params).section);
  if (!item) notFound();
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{item.label}</h1>
      <Card>
        <CardHeader>
          <CardTitle>Coming soon</CardTitle>
          <CardDescription>
            {item.summary} This page is not built yet; the same actions are available through the JSON API
            under <code className="font-mono">/api/v1</code>.
          </CardDescription>
        </CardHeader>
      </Card>
    </div>
  );
}
