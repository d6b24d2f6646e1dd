import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";

/**
 * Cursor pagination of server-rendered lists: "First page" when past it, "Next page" while the
 * list has more. `params` are the other query parameters to keep (filters).
 */
export function Pagination({
  basePath,
  nextCursor,
  isFirstPage,
  params = {},
}: {
  basePath: string;
  nextCursor: string | null;
  isFirstPage: boolean;
  params?: Record<string, string | undefined>;
}) {
  if (!nextCursor && isFirstPage) return null;
  const href = (cursor?: string) => {
    const query = new URLSearchParams(Object.entries({ ...params, cursor }).filter((e): e is [string, string] => Boolean(e[1])));
    const text = query.toString();
    return text ? `${basePath}?${text}` : basePath;
  };
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-end gap-2">
      {!isFirstPage && (
        <Link href={href()} className={buttonVariants({ variant: "outline", size: "sm" })}>
          First page
        </Link>
      )}
      {nextCursor && (
        <Link href={href(nextCursor)} className={buttonVariants({ variant: "outline", size: "sm" })}>
          Next page
        </Link>
      )}
    </nav>
  );
}
