import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import { Deployment } from "kubernetes-models/apps/v1";
import { PersistentVolumeClaim, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { loadConfig } from "#infrastructure/config/config";

/**
 * The deployment examples (issue 42, item 7) are valid for their platforms and
 * keep the data. One pod owns the SQLite volume, start-up is not mistaken for
 * a hang, and the platform waits out the app's own shutdown budget.
 */
const docker = fileURLToPath(new URL("../../docker/", import.meta.url));

/**
 * What `server.mjs` may take to stop: it stops the web processes, then the
 * background process, and gives each group SHUTDOWN_DEADLINE_MS plus 5 s
 * before SIGKILL (README, "Stopping").
 */
const shutdownBudgetSeconds = (deadlineMs: number) => (2 * (deadlineMs + 5_000)) / 1000;
const configFor = (env: Record<string, string>) => loadConfig({ APP_SECRET: "x".repeat(32), ...env });
const defaultDeadlineMs = configFor({ DATA_DIR: "/nonexistent" }).raw.SHUTDOWN_DEADLINE_MS;

const models = { "v1/PersistentVolumeClaim": PersistentVolumeClaim, "apps/v1/Deployment": Deployment, "v1/Service": Service };

describe("the Kubernetes example", () => {
  const objects = parseAllDocuments(readFileSync(path.join(docker, "kubernetes.example.yaml"), "utf8")).map((doc) => doc.toJS() as { apiVersion: string; kind: string });
  const deployment = new Deployment(objects.find((o) => o.kind === "Deployment") as never);
  const pod = deployment.spec!.template.spec!;
  const app = pod.containers[0]!;

  it("holds only objects that pass the Kubernetes schemas", () => {
    expect(objects.map((o) => `${o.apiVersion}/${o.kind}`).sort()).toEqual(Object.keys(models).sort());
    for (const object of objects) {
      const Model = models[`${object.apiVersion}/${object.kind}` as keyof typeof models];
      expect(() => new Model(object as never).validate(), `${object.kind}`).not.toThrow();
    }
  });

  it("runs one pod on a claimed volume at DATA_DIR, and stops it before starting the next", () => {
    expect(deployment.spec!.replicas).toBe(1);
    expect(deployment.spec!.strategy?.type).toBe("Recreate");
    const claim = objects.find((o) => o.kind === "PersistentVolumeClaim") as unknown as { metadata: { name: string } };
    const volume = pod.volumes!.find((v) => v.persistentVolumeClaim?.claimName === claim.metadata.name)!;
    const dataDir = app.env!.find((e) => e.name === "DATA_DIR")!.value;
    expect(app.volumeMounts).toContainEqual(expect.objectContaining({ name: volume.name, mountPath: dataDir }));
  });

  it("waits out start-up before liveness counts, checks liveness on /healthz and readiness on /readyz", () => {
    expect(app.startupProbe?.httpGet?.path).toBe("/healthz");
    expect(app.livenessProbe?.httpGet?.path).toBe("/healthz");
    expect(app.readinessProbe?.httpGet?.path).toBe("/readyz");
  });

  it("gives the pod longer to stop than the app's shutdown budget", () => {
    const deadlineMs = Number(app.env!.find((e) => e.name === "SHUTDOWN_DEADLINE_MS")?.value ?? defaultDeadlineMs);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(shutdownBudgetSeconds(deadlineMs));
  });
});

describe("the Compose file", () => {
  const compose = parse(readFileSync(path.join(docker, "docker-compose.yml"), "utf8"), { merge: true });

  it("passes the Compose specification's schema", () => {
    // The compose-spec schema as dclint ships it: draft-07, named by an https address Ajv does not know, hence no check of the
    // schema itself. Compose's durations ("40s") are Go's, not JSON Schema's, so formats are not checked either.
    const schemaFile = path.join(path.dirname(createRequire(import.meta.url).resolve("dclint/package.json")), "schemas", "compose.schema.json");
    const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false, validateSchema: false }).compile(JSON.parse(readFileSync(schemaFile, "utf8")));
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
  });

  it("gives the app longer to stop than its shutdown budget", () => {
    const app = compose.services.app as { stop_grace_period?: string; environment?: Record<string, string> };
    const grace = /^(\d+)s$/.exec(app.stop_grace_period ?? "")?.[1];
    const deadlineMs = Number(app.environment?.SHUTDOWN_DEADLINE_MS ?? defaultDeadlineMs);
    expect(Number(grace)).toBeGreaterThan(shutdownBudgetSeconds(deadlineMs));
  });
});

describe("the image", () => {
  it("keeps scheduled backups on its data volume, which its user may write", () => {
    const dockerfile = readFileSync(path.join(docker, "Dockerfile"), "utf8");
    const dataDir = /DATA_DIR=(\S+)/.exec(dockerfile)![1]!;
    expect(dockerfile).toContain(`VOLUME ["${dataDir}"]`);
    expect(dockerfile).toMatch(new RegExp(`chown -R node:node ${dataDir}\\b[\\s\\S]*USER node`));
    expect(configFor({ DATA_DIR: dataDir }).operations.backup.dir).toBe(path.join(dataDir, "backups"));
  });
});
