import { z } from "zod";

/**
 * Validation messages in plain words for people filling in forms and reading API problems:
 * zod's own wording ("Too big: expected string to have <=200 characters") is for developers.
 * Installed once as zod's global error map, below every schema's own message (those win);
 * issues not worded here keep zod's text.
 */

type Issue = z.core.$ZodRawIssue;

const ARTICLE: Record<string, string> = { string: "text", number: "a number", int: "a whole number", boolean: "true or false", array: "a list", object: "an object" };

function sizeMessage(origin: string | undefined, limit: number, most: boolean): string | undefined {
  switch (origin) {
    case "string":
      if (!most && limit === 1) return "Must not be empty.";
      return `Use ${most ? "at most" : "at least"} ${limit} character${limit === 1 ? "" : "s"}.`;
    case "array":
    case "set":
      return `Give ${most ? "at most" : "at least"} ${limit} item${limit === 1 ? "" : "s"}.`;
    case "number":
    case "int":
    case "bigint":
      return `Must be ${limit} or ${most ? "less" : "more"}.`;
    case "file":
      return `The file must be ${most ? "at most" : "at least"} ${limit} bytes.`;
    default:
      return undefined;
  }
}

const FORMATS: Record<string, string> = {
  url: "Enter a full URL, such as https://api.example.com.",
  email: "Enter an email address, such as ada@example.com.",
  uuid: "Must be a UUID.",
  datetime: "Enter a date and time, such as 2026-05-03T14:05:00Z.",
};

export function plainIssueMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "too_big":
      return sizeMessage(issue.origin, Number(issue.maximum) - (issue.inclusive === false ? 1 : 0), true);
    case "too_small":
      return sizeMessage(issue.origin, Number(issue.minimum) + (issue.inclusive === false ? 1 : 0), false);
    case "invalid_type":
      if (issue.input === undefined) return "Required.";
      return ARTICLE[issue.expected] ? `Must be ${ARTICLE[issue.expected]}.` : undefined;
    case "invalid_format":
      return FORMATS[issue.format] ?? (issue.format === "regex" ? "Contains characters that are not allowed here." : undefined);
    case "invalid_value":
      return issue.values.length > 0 ? `Choose one of: ${issue.values.map(String).join(", ")}.` : undefined;
    case "unrecognized_keys":
      return `Not a known field: ${issue.keys.join(", ")}.`;
    default:
      return undefined;
  }
}

z.config({ customError: plainIssueMessage });
