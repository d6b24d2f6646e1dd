import type { ComponentProps } from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";

type FormFieldProps = ComponentProps<typeof Input> & {
  id: string;
  label: string;
  hint?: string;
  error?: string;
};

/** A Field holding a plain input named after its id, for forms posted as FormData. */
export function FormField({ id, label, hint, error, ...inputProps }: FormFieldProps) {
  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(control) => <Input {...control} name={id} {...inputProps} />}
    </Field>
  );
}
