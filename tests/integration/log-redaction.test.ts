import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { errorText, loggerOptions } from "@/lib/log";

/**
 * Prisma's error messages render the query they came from, values included: a validation error
 * of a user create prints its password hash. Logged errors keep only Prisma's reason.
 */

const HASH = "scrypt$16384$8$1$c2FsdA$SECRET-HASH-0f9e8d";

async function prismaValidationError(): Promise<Error> {
  try {
    await db().user.create({ data: { email: 42 as unknown as string, passwordHash: HASH } });
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected Prisma to refuse the create");
}

function captureLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { log: pino({ ...loggerOptions, level: "info" }, stream), lines };
}

describe("errors in logs carry no query values", () => {
  it("errorText keeps a Prisma error's name and reason, not the rendered query", async () => {
    const e = await prismaValidationError();
    expect(e.message).toContain(HASH); // what Prisma itself would have put in the log
    const text = errorText(e);
    expect(text).not.toContain(HASH);
    expect(text).toMatch(/^PrismaClientValidationError: Argument `email`/);
  });

  it("the logger's `err` serializer does the same for a Prisma error object, and keeps other errors whole", async () => {
    const { log, lines } = captureLogger();
    log.error({ err: await prismaValidationError() }, "unhandled error in API handler");
    log.error({ err: new TypeError("plain failure") }, "other");
    expect(lines).toHaveLength(2);
    expect(lines[0]).not.toContain(HASH);
    expect(JSON.parse(lines[0]).err).toMatchObject({ type: "PrismaClientValidationError", message: expect.stringContaining("Argument `email`") });
    expect(JSON.parse(lines[1]).err).toMatchObject({ type: "TypeError", message: "plain failure", stack: expect.any(String) });
  });

  it("non-errors are stringified", () => {
    expect(errorText("boom")).toBe("boom");
    expect(errorText(new Error("plain"))).toBe("plain");
  });
});
