import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, setting } from "@/lib/config/settings";

/**
 * Secrets the instance needs but nobody should have to configure on a single machine
 * (the session signing secret, the encryption key, ...).
 *
 * - `SECRET_KEY` set: each named secret is HMAC-SHA256(SECRET_KEY, name), so every instance
 *   behind a load balancer derives the same value and different names never share one.
 * - otherwise: 32 random bytes generated once into `<data dir>/<name>` (mode 0600) and read
 *   back on every start, so sessions survive restarts.
 */

const cache = new Map<string, string>();

export function instanceDataDir(): string {
  return dataDir();
}

function assertSafeName(name: string): void {
  if (!/^[a-z0-9][a-z0-9._-]{0,63}$/i.test(name)) throw new Error(`Invalid instance secret name: ${name}`);
}

function deriveFromSecretKey(secretKey: string, name: string): string {
  return createHmac("sha256", secretKey).update(`switchboard:${name}`).digest("base64url");
}

function readOrCreateSecretFile(file: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // `wx` refuses to overwrite: when two processes race, the loser reads the winner's file.
    fs.writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const value = fs.readFileSync(file, "utf8").trim();
  if (value.length < 32) throw new Error(`Instance secret file ${file} is empty or too short; delete it to regenerate`);
  return value;
}

export function getOrCreateInstanceSecret(name: string): string {
  const cached = cache.get(name);
  if (cached) return cached;
  assertSafeName(name);
  const secretKey = setting("SECRET_KEY");
  const value = secretKey
    ? deriveFromSecretKey(secretKey, name)
    : readOrCreateSecretFile(path.join(/*turbopackIgnore: true*/ instanceDataDir(), name));
  cache.set(name, value);
  return value;
}
