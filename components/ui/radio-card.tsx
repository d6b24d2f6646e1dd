import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { focusRing } from "@/components/ui/focus-ring";

/** A bordered card that is a radio button's label: the checked one is tinted, the focused one ringed. */
const radioCardClasses = cn(
  "flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm",
  "border-zinc-300 has-[:checked]:border-sky-600 has-[:checked]:bg-sky-50 dark:border-zinc-700 dark:has-[:checked]:border-sky-400 dark:has-[:checked]:bg-sky-950/40",
  "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-500 has-[:disabled]:cursor-not-allowed dark:has-[:focus-visible]:ring-sky-400",
);

type RadioCardProps = Omit<ComponentProps<"input">, "type" | "className" | "children"> & {
  /** What the card says next to the radio button (its accessible name). */
  children: ReactNode;
};

/**
 * One choice of a group of radio buttons, drawn as a card; every input prop (a form library's
 * `register(...)`, or `checked` + `onChange`) goes to the radio button itself.
 */
export function RadioCard({ children, ...input }: RadioCardProps) {
  return (
    <label className={radioCardClasses}>
      <input type="radio" {...input} className={cn("mt-0.5 accent-sky-600", focusRing)} />
      {children}
    </label>
  );
}

/**
 * Radio cards in a fieldset with a visible legend: arrow keys move between them, Tab leaves the
 * group. `className` sets the columns (`sm:grid-cols-3`).
 */
export function RadioCardGroup({ legend, className, children }: { legend: ReactNode; className?: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-1.5">
      <legend className="mb-1.5 text-sm font-medium text-zinc-800 dark:text-zinc-200">{legend}</legend>
      <div className={cn("grid gap-2", className)}>{children}</div>
    </fieldset>
  );
}
