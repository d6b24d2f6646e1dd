import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Browser, BrowserContext, CDPSession, FileChooser, Page } from "playwright-core";
import { db } from "@/lib/db/client";
import { makeFile, makeMember, makeWorkspace, makeWorkspaceMember, uniqueSuffix } from "@/tests/helpers/factories";
import { ensureBuild, type RunningApp, startApp } from "@/tests/e2e/support/next-app";
import { launchBrowser, newContext, screenshot, seriousA11yViolations, signIn } from "@/tests/e2e/support/browser";
import { seedAdmin } from "@/tests/e2e/support/seed";

/**
 * The end-user files page in real Chromium against a production build: a plain workspace
 * member uploads (picker by keyboard, drag and drop), watches progress, cancels, copies URIs,
 * filters, previews, renames and deletes; the server's 413 reaches the page as a message.
 * MAX_UPLOAD_BYTES is 1 MiB for this server; blobs go to a directory the test inspects.
 */

const MAX_UPLOAD_BYTES = 1024 * 1024;

let app: RunningApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cdp: CDPSession;
let filesDir: string;
let workspaceId: string;
let member: { userId: string; email: string; password: string };
let orgId: string;

/** An org *member* (not admin) with a password, in the seeded workspace. */
async function seedPlainMember(orgId: string, wsId: string) {
  const suffix = uniqueSuffix();
  const email = `e2e-files-${suffix}@example.test`;
  const password = `e2e-password-${suffix}`;
  const user = await makeMember({ orgId, workspaceId: wsId }, { role: "member", email, name: "Files Member", password });
  return { userId: user.id, email, password };
}

/** Upload bandwidth of the browser (bytes/s; -1 = unthrottled), so progress is observable. */
async function throttleUploads(bytesPerSecond: number) {
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

/** Records every aria-valuenow a progress bar takes, per bar label. */
async function recordProgress() {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { __progress: typeof seen }).__progress = seen;
    new MutationObserver((mutations) => {
      for (const m of mutations) {
        const el = m.target as Element;
        if (el.getAttribute("role") !== "progressbar") continue;
        const label = el.getAttribute("aria-label") ?? "";
        (seen[label] ??= []).push(Number(el.getAttribute("aria-valuenow")));
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
}

/**
 * Opens the file picker through `trigger`. Until React has hydrated the page, a click or Enter
 * on the drop zone does nothing, so a loaded machine may need another try.
 */
async function openFileChooser(trigger: () => Promise<void>): Promise<FileChooser> {
  for (let attempt = 1; ; attempt++) {
    const chooser = page.waitForEvent("filechooser", { timeout: 5_000 });
    await trigger();
    try {
      return await chooser;
    } catch (e) {
      if (attempt >= 4) throw e;
    }
  }
}

const progressSeen = () => page.evaluate(() => (window as unknown as { __progress: Record<string, number[]> }).__progress);
const dropZone = () => page.getByRole("button", { name: /Drop files here or choose files/ });
const doneUpload = (name: string) => page.locator('li[data-upload-status="done"]').filter({ hasText: name });
const fileRow = (name: string) => page.locator("tr[data-file-id]").filter({ has: page.getByText(name, { exact: true }) });

/** Full-page screenshot from the top (a scrolled page would repeat the sticky header). */
async function topScreenshot(name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

const notesText = "first line of the notes\n" + "lorem ipsum dolor sit amet ".repeat(12_000); // ~320 KB
const csvText = "id,name\n" + Array.from({ length: 12_000 }, (_, i) => `${i},row ${i}`).join("\n"); // ~140 KB

beforeAll(async () => {
  filesDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-e2e-files-"));
  const admin = await seedAdmin();
  workspaceId = admin.workspace.id;
  orgId = admin.org.id;
  member = await seedPlainMember(admin.org.id, workspaceId);
  await ensureBuild();
  [app, browser] = await Promise.all([
    // 1 MiB (default 50 MiB) so the over-limit file is small; blobs in a directory the test inspects for leftovers.
    startApp({ databaseUrl: inject("databaseUrl"), env: { MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES), SWITCHBOARD_FILES_DIR: filesDir } }),
    launchBrowser(),
  ]);
  context = await newContext(browser, app.baseUrl);
  page = await context.newPage();
  cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
}, 600_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await app?.stop();
  if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
});

describe("files page", () => {
  it("opens from the side navigation for a plain member, with an empty state that says what to do", async () => {
    await signIn(page, member.email, member.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Files" }).click();
    await page.waitForURL(`**/w/${workspaceId}/files`);
    await page.getByRole("heading", { level: 1, name: "Files" }).waitFor();
    await expect(page.getByRole("heading", { name: "No files here yet" }).isVisible()).resolves.toBe(true);
    await expect(page.getByText(/Drop files onto the upload area above/).isVisible()).resolves.toBe(true);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("uploads two files (keyboard picker and drag and drop) with tags, each with its own progress bar", async () => {
    await recordProgress();
    await page.getByLabel("Tags", { exact: true }).fill("e2e, notes");
    await throttleUploads(256 * 1024);
    await dropZone().focus();
    const chooser = await openFileChooser(() => page.keyboard.press("Enter"));
    await chooser.setFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from(notesText) });

    await page.getByLabel("Tags", { exact: true }).fill("e2e, data");
    await page.getByRole("radio", { name: /Workspace/ }).check();
    const transfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], "report.csv", { type: "text/csv" }));
      return dt;
    }, csvText);
    for (const type of ["dragenter", "dragover", "drop"]) await dropZone().dispatchEvent(type, { dataTransfer: transfer });

    await doneUpload("notes.txt").waitFor({ timeout: 20_000 });
    await doneUpload("report.csv").waitFor({ timeout: 20_000 });
    await throttleUploads(-1);

    const progress = await progressSeen();
    for (const name of ["notes.txt", "report.csv"]) {
      const values = progress[`Upload of ${name}`] ?? [];
      expect(values.some((v) => v > 0 && v < 100), `${name} showed intermediate progress: ${values.join(",")}`).toBe(true);
      expect(values.at(-1)).toBe(100);
    }
    await topScreenshot("files-01-uploaded-light");
  });

  it("lists both files with their files:// URIs, tags and visibility; the URI copies to the clipboard", async () => {
    await fileRow("report.csv").waitFor();
    const rows = await page.locator("tr[data-file-id]").count();
    expect(rows).toBe(2);
    for (const name of ["notes.txt", "report.csv"]) {
      const row = fileRow(name);
      const id = await row.getAttribute("data-file-id");
      expect(id).toMatch(/^fl_[0-9a-f]{24}$/);
      await expect(row.getByText(`files://${id}`).isVisible()).resolves.toBe(true);
    }
    await expect(fileRow("notes.txt").getByText("Private").isVisible()).resolves.toBe(true);
    await expect(fileRow("report.csv").getByText("Workspace", { exact: true }).isVisible()).resolves.toBe(true);

    const csvId = await fileRow("report.csv").getAttribute("data-file-id");
    await fileRow("report.csv").getByRole("button", { name: "Copy the files:// URI of report.csv" }).click();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(`files://${csvId}`);
    const stored = await db().file.findUnique({ where: { id: csvId! }, select: { tags: true, visibility: true, mimeType: true } });
    expect(stored).toEqual({ tags: ["e2e", "data"], visibility: "workspace", mimeType: "text/csv" });
  });

  it("filters by tag (form and tag link) and by MIME type", async () => {
    await page.getByLabel("Tag", { exact: true }).fill("data");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL(/tag=data/);
    await fileRow("notes.txt").waitFor({ state: "detached" });
    expect(await page.locator("tr[data-file-id]").count()).toBe(1);
    await expect(fileRow("report.csv").isVisible()).resolves.toBe(true);

    await page.getByRole("link", { name: "Clear filters" }).first().click();
    await fileRow("notes.txt").waitFor();
    await fileRow("notes.txt").getByRole("link", { name: "notes", exact: true }).click();
    await page.waitForURL(/tag=notes/);
    await fileRow("report.csv").waitFor({ state: "detached" });
    expect(await page.locator("tr[data-file-id]").count()).toBe(1);

    await page.goto(`/w/${workspaceId}/files?mimeType=text%2Fcsv`);
    await fileRow("report.csv").waitFor();
    expect(await page.locator("tr[data-file-id]").count()).toBe(1);

    await page.goto(`/w/${workspaceId}/files?tag=nothing-has-this`);
    await page.getByRole("heading", { name: "No files match these filters" }).waitFor();
    await page.goto(`/w/${workspaceId}/files`);
  });

  it("previews the first 64 KB of a text file", async () => {
    await fileRow("notes.txt").getByRole("button", { name: "Preview notes.txt" }).click();
    const dialog = page.getByRole("dialog", { name: "notes.txt" });
    const contents = dialog.getByLabel("Contents of notes.txt");
    await contents.waitFor();
    const text = await contents.textContent();
    expect(text?.startsWith("first line of the notes\nlorem ipsum")).toBe(true);
    expect(text?.length).toBe(64 * 1024);
    await expect(dialog.getByText(/Showing the first 64 KB of/).isVisible()).resolves.toBe(true);
    await topScreenshot("files-02-preview");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("previews an image", async () => {
    // A 1×1 PNG.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    await page.getByLabel("Tags", { exact: true }).fill("");
    const chooser = await openFileChooser(() => dropZone().click());
    await chooser.setFiles({ name: "dot.png", mimeType: "image/png", buffer: png });
    await fileRow("dot.png").waitFor();
    await fileRow("dot.png").getByRole("button", { name: "Preview dot.png" }).click();
    const image = page.getByRole("dialog", { name: "dot.png" }).getByRole("img", { name: "Preview of dot.png" });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await page.keyboard.press("Escape");
  });

  it("renames and retags a file", async () => {
    await fileRow("notes.txt").getByRole("button", { name: "Edit notes.txt" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit notes.txt" });
    await dialog.getByLabel("Name").fill("meeting-notes.txt");
    await dialog.getByLabel("Tags", { exact: true }).fill("e2e, minutes");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await fileRow("meeting-notes.txt").waitFor();
    await expect(fileRow("meeting-notes.txt").getByRole("link", { name: "minutes", exact: true }).isVisible()).resolves.toBe(true);
    await expect(fileRow("notes.txt").count()).resolves.toBe(0);
  });

  it("deletes a file only after confirmation", async () => {
    const id = await fileRow("report.csv").getAttribute("data-file-id");
    await fileRow("report.csv").getByRole("button", { name: "Delete report.csv" }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete report.csv?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    await expect(fileRow("report.csv").isVisible()).resolves.toBe(true);

    await fileRow("report.csv").getByRole("button", { name: "Delete report.csv" }).click();
    await confirm.getByRole("button", { name: "Delete file" }).click();
    await fileRow("report.csv").waitFor({ state: "detached" });
    await expect(db().file.count({ where: { id: id! } })).resolves.toBe(0);
  });

  it("refuses a file over MAX_UPLOAD_BYTES at once, in MB, without sending it, and nothing is stored", async () => {
    await expect(page.getByText("Several files at once, up to 1 MB each.").isVisible()).resolves.toBe(true);
    const uploadsSent: string[] = [];
    const watch = (request: { method: () => string; url: () => string }) => {
      if (request.method() === "POST" && request.url().includes("/files")) uploadsSent.push(request.url());
    };
    page.on("request", watch);
    const chooser = await openFileChooser(() => dropZone().click());
    await chooser.setFiles({ name: "too-big.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(MAX_UPLOAD_BYTES + 300 * 1024, 7) });
    const row = page.locator('li[data-upload-status="failed"]').filter({ hasText: "too-big.bin" });
    await row.waitFor();
    await expect(row.getByText("Too large. too-big.bin has 1.3 MB; the upload limit is 1 MB.").isVisible()).resolves.toBe(true);
    page.off("request", watch);
    expect(uploadsSent).toEqual([]);
    await expect(db().file.count({ where: { workspaceId, name: "too-big.bin" } })).resolves.toBe(0);
    await expect(row.getByRole("button", { name: /Upload too-big.bin again/ }).count()).resolves.toBe(0);
    await topScreenshot("files-03-too-large");
  });

  it("cancels an upload half-way and leaves nothing behind", async () => {
    // ~56 s for the whole file: however long a loaded machine takes to see the first 5 % and
    // click Cancel, the upload cannot have finished by then.
    await throttleUploads(16 * 1024);
    const chooser = await openFileChooser(() => dropZone().click());
    await chooser.setFiles({ name: "slow.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(900 * 1024, 3) });
    const progressbar = page.getByRole("progressbar", { name: "Upload of slow.bin" });
    await expect.poll(async () => Number(await progressbar.getAttribute("aria-valuenow")), { timeout: 30_000 }).toBeGreaterThan(5);
    await page.getByRole("button", { name: "Cancel the upload of slow.bin" }).click();
    await page.locator('li[data-upload-status="cancelled"]').filter({ hasText: "slow.bin" }).waitFor();
    await throttleUploads(-1);

    await expect.poll(() => listDir(path.join(filesDir, "tmp")).length, { timeout: 30_000 }).toBe(0);
    const rows = await db().file.findMany({ where: { workspaceId }, select: { name: true, storageKey: true } });
    expect(rows.map((r) => r.name).sort()).toEqual(["dot.png", "meeting-notes.txt"]);
    expect(listDir(path.join(filesDir, "blobs")).sort()).toEqual(rows.map((r) => r.storageKey).sort());
    await page.reload();
    await fileRow("meeting-notes.txt").waitFor();
    await expect(fileRow("slow.bin").count()).resolves.toBe(0);
  });

  it("switches workspace with the picker and pages through a long list", async () => {
    const archive = await makeWorkspace(orgId, { name: "Archive", slug: `archive-${uniqueSuffix()}` });
    await makeWorkspaceMember({ orgId, workspaceId: archive.id }, { id: member.userId });
    const base = Date.now() - 60_000;
    for (let i = 0; i < 30; i++) {
      await makeFile({ orgId, workspaceId: archive.id }, {
        id: `fl_${(0xa0000 + i).toString(16).padStart(24, "0")}`, ownerId: member.userId, name: `archived-${String(i).padStart(2, "0")}.txt`,
        storageKey: "00000000-0000-0000-0000-000000000000", createdAt: new Date(base + i * 1000),
      });
    }
    await page.goto(`/w/${workspaceId}/files`);
    await page.getByLabel("Workspace", { exact: true }).selectOption({ label: "Archive" });
    await page.getByRole("button", { name: "Open" }).click();
    await page.waitForURL(`**/w/${archive.id}/files`);
    await page.getByRole("heading", { name: "Files in Archive" }).waitFor();
    expect(await page.locator("tr[data-file-id]").count()).toBe(25);
    await expect(fileRow("archived-29.txt").isVisible()).resolves.toBe(true);
    await page.getByRole("link", { name: "Next page" }).click();
    await fileRow("archived-04.txt").waitFor();
    expect(await page.locator("tr[data-file-id]").count()).toBe(5);
    await expect(page.getByRole("link", { name: "Next page" }).count()).resolves.toBe(0);
    await page.getByRole("link", { name: "First page" }).click();
    await fileRow("archived-29.txt").waitFor();
  });

  it("has no serious accessibility problems in light and dark mode", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.evaluate(() => localStorage.setItem("theme", "light"));
    await page.goto(`/w/${workspaceId}/files`);
    await page.getByLabel("Workspace", { exact: true }).waitFor();
    await fileRow("meeting-notes.txt").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await topScreenshot("files-04-list-light");

    await page.evaluate(() => localStorage.setItem("theme", "dark"));
    await page.reload();
    await page.locator("html.dark").waitFor();
    await fileRow("meeting-notes.txt").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await topScreenshot("files-05-list-dark");
  });
});
