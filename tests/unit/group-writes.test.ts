import { describe, expect, it } from "vitest";
import { groupWrites } from "@/lib/db/group-writes";

/**
 * The group commit under the tool-call audit rows (lib/db/group-writes.ts): writes arriving
 * while a group is being written go out together in the next one, a lone write goes out at
 * once, and a group the database refuses is retried row by row so that only the refused row
 * fails and no other row is lost.
 */

function recordingWriter(refuse: (item: string) => boolean = () => false) {
  const statements: string[][] = [];
  let release: (() => void) | null = null;
  const writer = groupWrites<string, string>({
    async writeMany(items) {
      statements.push([...items]);
      if (items.some(refuse)) throw new Error("the statement was refused");
      return items.map((i) => `id-${i}`);
    },
    async writeOne(item) {
      statements.push([item]);
      if (item === "first" && release === null) await new Promise<void>((r) => (release = r));
      if (refuse(item)) throw new Error(`${item} was refused`);
      return `id-${item}`;
    },
  });
  return { writer, statements, release: () => release?.() };
}

describe("group commit of rows", () => {
  it("a lone write is written alone and at once; writes arriving meanwhile share the next statement, each answered with its own id", async () => {
    const { writer, statements, release } = recordingWriter();
    const first = writer.write("first");
    await new Promise((r) => setTimeout(r, 10));
    expect(statements).toEqual([["first"]]); // no waiting for company when idle
    const later = ["a", "b", "c"].map((i) => writer.write(i));
    await new Promise((r) => setTimeout(r, 10));
    expect(statements).toEqual([["first"]]); // still writing the first group
    release();
    expect(await first).toBe("id-first");
    expect(await Promise.all(later)).toEqual(["id-a", "id-b", "id-c"]);
    expect(statements).toEqual([["first"], ["a", "b", "c"]]);
  });

  it("a refused group is retried row by row: only the refused row fails, the others are written", async () => {
    const { writer, statements, release } = recordingWriter((i) => i === "bad");
    const first = writer.write("first");
    await new Promise((r) => setTimeout(r, 10));
    const rest = ["a", "bad", "c"].map((i) => writer.write(i).then((id) => ({ id }), (e: Error) => ({ error: e.message })));
    await new Promise((r) => setTimeout(r, 10));
    release();
    await first;
    expect(await Promise.all(rest)).toEqual([{ id: "id-a" }, { error: "bad was refused" }, { id: "id-c" }]);
    expect(statements).toEqual([["first"], ["a", "bad", "c"], ["a"], ["bad"], ["c"]]);
  });

  it("a group whose answer was lost is written again through writeAgain, a lone write too: a row already committed is not refused as a duplicate", async () => {
    const committed = new Set<string>();
    const statements: string[] = [];
    /** The statements that commit, then lose their answer with the connection. */
    const dropped = new Set(["one lone", "many a,b"]);
    const commit = (statement: string, items: string[]) => {
      statements.push(statement);
      const duplicate = items.find((i) => committed.has(i));
      if (duplicate) throw new Error(`duplicate key ${duplicate}`);
      items.forEach((i) => committed.add(i));
      if (dropped.has(statement)) throw new Error("Connection terminated unexpectedly");
      return items;
    };
    const writer = groupWrites<string, string>({
      writeMany: async (items) => commit(`many ${items.join(",")}`, items),
      writeOne: async (item) => commit(`one ${item}`, [item])[0],
      writeAgain: async (item) => (statements.push(`again ${item}`), committed.add(item), item),
    });
    expect(await writer.write("lone")).toBe("lone");
    expect(await Promise.all(["a", "b"].map((i) => writer.write(i)))).toEqual(["a", "b"]); // submitted together: one group
    expect(statements).toEqual(["one lone", "again lone", "many a,b", "again a", "again b"]);
    expect([...committed].sort()).toEqual(["a", "b", "lone"]);
  });
});
