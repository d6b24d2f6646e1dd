/**
 * Group commit: writes submitted while the previous group is being written wait for it and are
 * then written together, in one statement and one commit. An idle queue writes at once (the
 * next microtask), so a lone write waits for nothing; under load N concurrent writes cost one
 * round trip instead of N — the tool-call audit rows are written twice per call, and one
 * INSERT and one COMMIT per call were most of the database's share of a call (bench/README.md).
 *
 * A failed group is retried row by row, so one row the database refuses (a constraint, a
 * trigger) fails only its own write and never the others written with it, and a group lost to
 * a dropped connection still gets each of its rows one more try. That retry goes through
 * `writeAgain`, which must accept a row already written: a group can commit and lose its answer
 * with the connection.
 */

export interface GroupWriter<T, R> {
  /** Resolves once `item` is committed (with what `writeMany`/`writeOne` returned for it). */
  write(item: T): Promise<R>;
}

interface Pending<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export interface GroupWriterOptions<T, R> {
  /** Writes every item in one statement; returns one answer per item, in order. */
  writeMany(items: T[]): Promise<R[]>;
  /** Writes one item alone: a group of one. */
  writeOne(item: T): Promise<R>;
  /**
   * Writes one item of a failed group again, answering as if written when an earlier attempt
   * had already committed it; `writeOne` when not given.
   */
  writeAgain?(item: T): Promise<R>;
  /** The most items in one statement (PostgreSQL takes at most 65,535 bind parameters). */
  maxGroup?: number;
}

export function groupWrites<T, R>(options: GroupWriterOptions<T, R>): GroupWriter<T, R> {
  const maxGroup = options.maxGroup ?? 200;
  let queue: Array<Pending<T, R>> = [];
  let running = false;

  async function run(): Promise<void> {
    if (running || queue.length === 0) return;
    running = true;
    const group = queue.slice(0, maxGroup);
    queue = queue.slice(group.length);
    try {
      await writeGroup(group);
    } finally {
      running = false;
      if (queue.length > 0) void run();
    }
  }

  async function writeGroup(group: Array<Pending<T, R>>): Promise<void> {
    try {
      const answers = group.length === 1 ? [await options.writeOne(group[0].item)] : await options.writeMany(group.map((p) => p.item));
      group.forEach((p, i) => p.resolve(answers[i]));
      return;
    } catch (e) {
      if (group.length === 1 && !options.writeAgain) return group[0].reject(e);
    }
    const writeAgain = options.writeAgain ?? options.writeOne;
    await Promise.all(group.map((p) => writeAgain(p.item).then(p.resolve, p.reject)));
  }

  return {
    write(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!running) queueMicrotask(() => void run());
      });
    },
  };
}
