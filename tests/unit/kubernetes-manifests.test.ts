import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { settingNames } from "@/lib/config/settings";

/**
 * deploy/kubernetes as an operator applies it: the Deployment's probes point at the product's
 * own health and readiness routes, nothing runs as root, every container has requests and
 * limits, and every setting the manifests give the app is one lib/config/settings.ts declares (a
 * misspelt variable would be silently ignored). Read with the `yaml` library; where kubectl is
 * installed, the example overlay is also rendered by `kubectl kustomize` and checked the same way.
 */

type Doc = Record<string, any>;

const ROOT = path.join(process.cwd(), "deploy/kubernetes");
const BASE_FILES = ["configmap.yaml", "deployment.yaml", "service.yaml", "hpa.yaml", "pdb.yaml", "migrate-job.yaml"];

function readDocs(file: string): Doc[] {
  return parseAllDocuments(fs.readFileSync(file, "utf8")).map((doc) => {
    expect(doc.errors).toEqual([]);
    return doc.toJS() as Doc;
  });
}

const baseDocs = (): Doc[] => BASE_FILES.flatMap((file) => readDocs(path.join(ROOT, "base", file)));
const one = (docs: Doc[], kind: string): Doc => {
  const found = docs.filter((doc) => doc.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0];
};

const kubectlAvailable = spawnSync("kubectl", ["version", "--client"], { stdio: "ignore" }).status === 0;

function rendered(overlay: string): Doc[] {
  const out = execFileSync("kubectl", ["kustomize", path.join(ROOT, overlay)], { encoding: "utf8" });
  return parseAllDocuments(out).map((doc) => doc.toJS() as Doc);
}

/** Every variable a pod template gives its containers: env names and the ConfigMap's keys. */
function variablesOf(docs: Doc[]): string[] {
  const names = new Set<string>();
  for (const doc of docs) {
    if (doc.kind === "ConfigMap") Object.keys(doc.data ?? {}).forEach((key) => names.add(key));
    for (const container of doc.spec?.template?.spec?.containers ?? []) {
      for (const variable of container.env ?? []) names.add(variable.name);
    }
  }
  return [...names];
}

function checkWorkloads(docs: Doc[]): void {
  const deployment = one(docs, "Deployment");
  const pod = deployment.spec.template.spec;
  const [app] = pod.containers;
  expect(app.readinessProbe.httpGet.path).toBe("/api/ready");
  expect(app.livenessProbe.httpGet.path).toBe("/api/health");
  expect(deployment.spec.selector.matchLabels).toMatchObject(deployment.spec.template.metadata.labels);
  for (const workload of [deployment, one(docs, "Job")]) {
    const spec = workload.spec.template.spec;
    expect(spec.securityContext.runAsNonRoot, workload.metadata.name).toBe(true);
    expect(spec.securityContext.runAsUser).toBeGreaterThan(0);
    for (const container of spec.containers) {
      expect(container.securityContext.allowPrivilegeEscalation).toBe(false);
      expect(Object.keys(container.resources.requests).sort()).toEqual(["cpu", "memory"]);
      expect(Object.keys(container.resources.limits).sort()).toEqual(["cpu", "memory"]);
    }
  }
  // The image's migration command (Dockerfile, scripts/lib/image-assembly.ts).
  expect(one(docs, "Job").spec.template.spec.containers[0].command).toEqual(["node", "db-migrate.mjs", "deploy"]);
  expect(one(docs, "HorizontalPodAutoscaler").spec.scaleTargetRef.name).toBe(deployment.metadata.name);
  expect(one(docs, "PodDisruptionBudget").spec.selector.matchLabels).toMatchObject(deployment.spec.selector.matchLabels);
  expect(one(docs, "Service").spec.selector).toMatchObject(deployment.spec.selector.matchLabels);
  // Secrets are referenced, never written.
  expect(docs.filter((doc) => doc.kind === "Secret")).toEqual([]);
  const unknown = variablesOf(docs).filter((name) => !(settingNames() as string[]).includes(name));
  expect(unknown, "variables lib/config/settings.ts does not declare").toEqual([]);
}

describe("Kubernetes manifests (deploy/kubernetes)", () => {
  it("the base: probes on /api/ready and /api/health, non-root, requests and limits, only declared settings", () => {
    checkWorkloads(baseDocs());
  });

  it("the example overlay only adds declared settings, and its database and Redis URLs come from Secrets", () => {
    const overlay = readDocs(path.join(ROOT, "overlays/example/kustomization.yaml"))[0];
    const literals: string[] = overlay.configMapGenerator.flatMap((generator: Doc) => generator.literals ?? []);
    const names = literals.map((literal) => literal.split("=")[0]);
    expect(names.filter((name) => !(settingNames() as string[]).includes(name))).toEqual([]);
    const patch = readDocs(path.join(ROOT, "overlays/example/database-urls.yaml"))[0] as Doc[];
    const fromSecrets = patch.map((op) => [op.value.name, Boolean(op.value.valueFrom?.secretKeyRef)]);
    expect(fromSecrets).toEqual([["DATABASE_URL", true], ["REDIS_URL", true]]);
  });

  it.runIf(kubectlAvailable)("kubectl kustomize renders the example overlay into the same checked objects", () => {
    const docs = rendered("overlays/example");
    checkWorkloads(docs);
    const env = (kind: string) => one(docs, kind).spec.template.spec.containers[0].env.map((variable: Doc) => variable.name);
    for (const kind of ["Deployment", "Job"]) expect(env(kind)).toEqual(expect.arrayContaining(["DATABASE_URL", "REDIS_URL"]));
    expect(one(docs, "ConfigMap").data.PUBLIC_URL).toMatch(/^https:\/\//);
  });
});
