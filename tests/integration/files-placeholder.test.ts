import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { api, request } from "@/tests/helpers/api";
import { createTenant, type Tenant } from "@/tests/helpers/factories";

/** Until the files capability lands, the endpoints authenticate, hide what the caller cannot see, then answer 501. */

async function fileOf(t: Tenant, ownerId: string, visibility: "private" | "workspace" = "private") {
  const id = "fl_" + randomBytes(12).toString("hex");
  await db().file.create({
    data: { id, orgId: t.org.id, workspaceId: t.workspace.id, ownerId, name: "notes.txt", mimeType: "text/plain", size: 5, sha256: "0".repeat(64), storageKey: id, visibility },
  });
  return id;
}

function expectNotImplemented(res: { status: number; headers: Headers; body: { detail?: string } }) {
  expect(res.status).toBe(501);
  expect(res.headers.get("content-type")).toContain("application/problem+json");
  expect(res.body).toMatchObject({ status: 501, detail: "File storage arrives with the files capability." });
}

describe("files endpoints before the files capability", () => {
  it("a workspace member gets 501 for upload and list; an outsider 404; no credential 401", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const form = new FormData();
    form.append("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    const path = `/api/v1/workspaces/${t.workspace.id}/files`;

    expectNotImplemented(await api(t.member.token).post(path, undefined, { raw: form }));
    expectNotImplemented(await api(t.member.token).get(`${path}?tag=x&mimeType=text/plain`));
    expect((await api(other.owner.token).post(path, undefined, { raw: form })).status).toBe(404);
    expect((await api(other.owner.token).get(path)).status).toBe(404);
    expect((await request("POST", path, null, undefined, { raw: form })).status).toBe(401);
  });

  it("a file's owner gets 501 for read, change, delete and download; others who cannot see it get 404", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const privateFile = await fileOf(t, t.owner.user.id);
    const shared = await fileOf(t, t.owner.user.id, "workspace");
    const owner = api(t.owner.token);

    expectNotImplemented(await owner.get(`/api/v1/files/${privateFile}`));
    expectNotImplemented(await owner.get(`/api/v1/files/${privateFile}/content`));
    expectNotImplemented(await owner.patch(`/api/v1/files/${privateFile}`, { name: "renamed.txt" }));
    expectNotImplemented(await owner.delete(`/api/v1/files/${privateFile}`));

    expect((await api(t.member.token).get(`/api/v1/files/${privateFile}`)).status).toBe(404);
    expectNotImplemented(await api(t.member.token).get(`/api/v1/files/${shared}`));
    expect((await api(other.owner.token).get(`/api/v1/files/${shared}`)).status).toBe(404);
    expect((await api(t.owner.token).get(`/api/v1/files/fl_${"0".repeat(24)}`)).status).toBe(404);
    expect((await request("GET", `/api/v1/files/${privateFile}`, null)).status).toBe(401);
    expect(await db().file.count({ where: { id: privateFile } })).toBe(1);
  });

  it("the OpenAPI document describes the file endpoints, the upload as multipart/form-data", async () => {
    const doc = (await request("GET", "/api/v1/openapi.json", null)).body;
    const upload = doc.paths["/workspaces/{workspaceId}/files"].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(["multipart/form-data"]);
    expect(upload.responses["201"]).toBeDefined();
    expect(Object.keys(doc.paths["/files/{fileId}"]).sort()).toEqual(["delete", "get", "patch"]);
    expect(doc.paths["/files/{fileId}/content"].get).toBeDefined();
    const listParams = doc.paths["/workspaces/{workspaceId}/files"].get.parameters.map((p: { name: string }) => p.name);
    expect(listParams).toEqual(expect.arrayContaining(["tag", "mimeType"]));
  });
});
