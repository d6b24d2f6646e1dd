/** One visible focus style for every interactive primitive (keyboard users must see where they are). */
export const focusRing =
  "outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 focus-visible:ring-offset-white dark:focus-visible:ring-sky-400 dark:focus-visible:ring-offset-zinc-950";
