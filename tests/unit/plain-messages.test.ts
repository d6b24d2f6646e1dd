import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Name, Slug } from "@/lib/schemas/common";

const messages = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message);

describe("validation messages in plain words", () => {
  it("a name past 200 characters says how many are allowed, not zod's developer text", () => {
    expect(messages(Name, "x".repeat(201))).toEqual(["Use at most 200 characters."]);
  });

  it("a schema's own message still wins", () => {
    expect(messages(Name, "   ")).toEqual(["Must not be empty."]);
    expect(messages(Slug, "Not A Slug")).toEqual(["Use lowercase letters, digits and single hyphens."]);
  });

  it("missing fields, URLs, choices, lists and unknown fields", () => {
    const schema = z.strictObject({ url: z.url(), kind: z.enum(["http", "mcp"]), tags: z.array(z.string()).max(2), count: z.number().int().min(1) });
    expect(messages(schema, { url: "nope", kind: "ftp", tags: ["a", "b", "c"], count: 0, extra: 1 })).toEqual([
      "Enter a full URL, such as https://api.example.com.",
      "Choose one of: http, mcp.",
      "Give at most 2 items.",
      "Must be 1 or more.",
      "Not a known field: extra.",
    ]);
    expect(messages(schema, {})?.[0]).toBe("Required.");
  });
});
