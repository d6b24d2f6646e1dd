import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { ThemeProvider } from "@/components/shell/theme-provider";
import { NONCE_HEADER } from "@/lib/net/security-headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Switchboard", template: "%s · Switchboard" },
  description: "Turn APIs and upstream MCP servers into governed MCP servers.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The page's CSP nonce (proxy.ts): reading it also renders every page per request, as nonces need.
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // next-themes sets the theme class before hydration, which React would otherwise flag.
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-dvh bg-zinc-50 font-sans text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <ThemeProvider nonce={nonce}>{children}</ThemeProvider>
      </body>
    </html>
  );
}
