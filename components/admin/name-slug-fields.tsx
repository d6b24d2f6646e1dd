"use client";

import type { FieldValues, Path, PathValue, UseFormReturn } from "react-hook-form";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { errorAt } from "@/components/forms/form-alert";
import { slugify } from "@/components/admin/slug";
import { NAME_MAX_LENGTH, SLUG_MAX_LENGTH } from "@/lib/schemas/common";

/**
 * Name and slug inputs; while the slug has not been typed by hand it follows the name.
 * `idPrefix` keeps ids unique when two such forms share a page.
 */
export function NameSlugFields<F extends FieldValues>({ form, idPrefix, autoSlug }: { form: UseFormReturn<F>; idPrefix: string; autoSlug: boolean }) {
  const slugPath = "slug" as Path<F>;
  const name = form.register("name" as Path<F>, {
    onChange: (event: { target: { value: unknown } }) => {
      // The slug follows the name until someone edits it (programmatic setValue does not dirty it).
      if (!autoSlug || form.getFieldState(slugPath).isDirty) return;
      form.setValue(slugPath, slugify(String(event.target.value)) as PathValue<F, Path<F>>, { shouldValidate: form.formState.isSubmitted });
    },
  });
  const slug = form.register(slugPath);
  return (
    <>
      <Field id={`${idPrefix}-name`} label="Name" error={errorAt(form, "name")}>
        {(control) => <Input {...control} {...name} maxLength={NAME_MAX_LENGTH} autoComplete="off" />}
      </Field>
      <Field id={`${idPrefix}-slug`} label="Slug" hint="Lowercase letters, digits and single hyphens; used in URLs." error={errorAt(form, "slug")}>
        {(control) => <Input {...control} {...slug} maxLength={SLUG_MAX_LENGTH} autoComplete="off" className="font-mono" />}
      </Field>
    </>
  );
}
