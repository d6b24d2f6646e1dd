import { describe, expect, it } from "vitest";
import { problemResponse } from "@/lib/api/problem";

/** How errors that escape a domain function reach an API caller (lib/api/problem.ts). */

const prismaError = (code: string, message = `Invalid \`tx.orgMember.update()\` invocation in /work/lib/orgs/members.ts:54:5 (${code})`) =>
  Object.assign(new Error(message), { name: "PrismaClientKnownRequestError", code, clientVersion: "7" });

async function answer(e: unknown) {
  const res = problemResponse(e, "req-1");
  return { status: res.status, body: await res.json(), type: res.headers.get("content-type") };
}

describe("problemResponse", () => {
  it("a deadlock or serialization failure (P2034) is a 409 the caller may retry, not a 500", async () => {
    const { status, body, type } = await answer(prismaError("P2034"));
    expect(status).toBe(409);
    expect(type).toBe("application/problem+json");
    expect(body.detail).toMatch(/send it again/);
  });

  it("a transaction past its time limit (P2028) is a 503, not a 500", async () => {
    const { status, body } = await answer(prismaError("P2028"));
    expect(status).toBe(503);
    expect(body.detail).toMatch(/retry/);
  });

  it("never shows Prisma's message (it quotes our source and query) nor an unexpected error's", async () => {
    for (const e of [prismaError("P2002"), prismaError("P2025"), prismaError("P2034"), prismaError("P9999"), new TypeError("Cannot read properties of undefined (reading 'secretHeaders')")]) {
      const { body } = await answer(e);
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/invocation|members\.ts|secretHeaders|undefined/);
      expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(["detail", "status", "title", "type"]));
    }
    const unexpected = await answer(new TypeError("Cannot read properties of undefined"));
    expect(unexpected.status).toBe(500);
    expect(unexpected.body).toEqual({ type: "https://switchboard.dev/problems/unavailable", title: "Internal server error", status: 500, detail: "Something went wrong on our side; retry shortly." });
  });
});
