import type { LockableTable } from "@/lib/db/lock-row";

/**
 * One write of a given row at a time in this process, the others waiting their turn in memory.
 * The row lock (lockRow) is what makes concurrent writes correct, across processes too; but a
 * transaction waiting for a row lock holds a pool connection all the while, and 30 admins
 * saving one role at once would hold the whole pool and turn the rest of the instance's
 * requests into 503s. Queued here first, each write holds a connection only while it runs.
 */

const tails = new Map<string, Promise<unknown>>();

export async function queueRowWrite<T>(table: LockableTable, id: string, write: () => Promise<T>): Promise<T> {
  const key = `${table}:${id}`;
  const previous = tails.get(key) ?? Promise.resolve();
  const turn = previous.then(write, write);
  const tail = turn.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await turn;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
