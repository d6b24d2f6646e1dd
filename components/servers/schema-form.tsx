"use client";

import { useState } from "react";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";

type Json = Record<string, unknown>;

interface PropertySpec {
  name: string;
  kind: "string" | "number" | "integer" | "boolean" | "enum" | "json";
  required: boolean;
  description?: string;
  options?: unknown[];
}

/** The fields a tool's input schema asks for; anything not a plain scalar is edited as JSON. */
export function propertySpecs(schema: Json): PropertySpec[] {
  const properties = (schema.properties && typeof schema.properties === "object" ? schema.properties : {}) as Record<string, Json>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  return Object.entries(properties).map(([name, prop]) => {
    const type = Array.isArray(prop?.type) ? prop.type.find((t) => t !== "null") : prop?.type;
    const kind: PropertySpec["kind"] = Array.isArray(prop?.enum)
      ? "enum"
      : type === "string" || type === "number" || type === "integer" || type === "boolean"
        ? type
        : "json";
    return { name, kind, required: required.has(name), description: typeof prop?.description === "string" ? prop.description : undefined, options: prop?.enum as unknown[] };
  });
}

/** Field values (strings, as typed) → tool arguments; empty optional fields are left out. */
export function argumentsOf(specs: PropertySpec[], values: Record<string, string>): { args: Json; errors: Record<string, string> } {
  const args: Json = {};
  const errors: Record<string, string> = {};
  for (const spec of specs) {
    const raw = values[spec.name] ?? "";
    if (raw === "") {
      if (spec.required) errors[spec.name] = "Required.";
      continue;
    }
    if (spec.kind === "string") args[spec.name] = raw;
    else if (spec.kind === "number" || spec.kind === "integer") {
      const n = Number(raw);
      if (!Number.isFinite(n) || (spec.kind === "integer" && !Number.isInteger(n))) errors[spec.name] = `Enter ${spec.kind === "integer" ? "a whole number" : "a number"}.`;
      else args[spec.name] = n;
    } else if (spec.kind === "boolean") args[spec.name] = raw === "true";
    else if (spec.kind === "enum") args[spec.name] = JSON.parse(raw);
    else {
      try {
        args[spec.name] = JSON.parse(raw);
      } catch {
        errors[spec.name] = "Not valid JSON.";
      }
    }
  }
  return { args, errors };
}

interface SchemaFieldsProps {
  idPrefix: string;
  specs: PropertySpec[];
  values: Record<string, string>;
  errors: Record<string, string>;
  onChange: (name: string, value: string) => void;
}

/** One labelled control per argument, generated from the input schema. */
export function SchemaFields({ idPrefix, specs, values, errors, onChange }: SchemaFieldsProps) {
  if (specs.length === 0) return <p className="text-sm text-zinc-600 dark:text-zinc-400">This tool takes no arguments.</p>;
  return (
    <div className="grid gap-3">
      {specs.map((spec) => {
        const id = `${idPrefix}-${spec.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
        const label = `${spec.name}${spec.required ? " (required)" : ""}`;
        const hint = [spec.kind === "json" ? "JSON" : spec.kind, spec.description].filter(Boolean).join(" · ");
        const value = values[spec.name] ?? "";
        const set = (v: string) => onChange(spec.name, v);
        return (
          <Field key={spec.name} id={id} label={label} hint={hint} error={errors[spec.name]}>
            {(control) =>
              spec.kind === "boolean" ? (
                <Select {...control} value={value} onChange={(e) => set(e.target.value)}>
                  <option value="">(not set)</option>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </Select>
              ) : spec.kind === "enum" ? (
                <Select {...control} value={value} onChange={(e) => set(e.target.value)}>
                  <option value="">(not set)</option>
                  {(spec.options ?? []).map((o) => (
                    <option key={JSON.stringify(o)} value={JSON.stringify(o)}>
                      {String(o)}
                    </option>
                  ))}
                </Select>
              ) : spec.kind === "json" ? (
                <Textarea {...control} value={value} onChange={(e) => set(e.target.value)} rows={3} className="font-mono text-xs" spellCheck={false} />
              ) : (
                <Input {...control} value={value} onChange={(e) => set(e.target.value)} inputMode={spec.kind === "string" ? undefined : "decimal"} autoComplete="off" />
              )
            }
          </Field>
        );
      })}
    </div>
  );
}

/** Field values and their errors, kept per tool. */
export function useSchemaValues() {
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  return {
    values,
    errors,
    setErrors,
    reset: () => {
      setValues({});
      setErrors({});
    },
    onChange: (name: string, value: string) => setValues((v) => ({ ...v, [name]: value })),
  };
}
