import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { connect, createServer, type NetConnectOpts } from "node:net";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll } from "vitest";

/**
 * Where a production adapter's contract suite finds its server (ARCHITECTURE §4):
 * 1. the adapter's URL variable, when set (a server someone runs for us);
 * 2. else a container started with Testcontainers, when a Docker engine answers;
 * 3. else nothing: the suite reports itself skipped with the reason. Never a fake pass.
 */
export type ServerKind = "eventstoredb" | "mongodb" | "s3" | "kafka" | "temporal" | "qdrant";

export interface RunningServer {
  /** Connection string / address in the form the adapter's variable takes. */
  url: string;
  /** Further settings (e.g. S3 credentials and bucket). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export type ServerPlan =
  | { kind: ServerKind; skip: string }
  | { kind: ServerKind; skip?: undefined; source: string; start(): Promise<RunningServer> };

const VARIABLES: Record<ServerKind, string> = {
  eventstoredb: "EVENTSTORE_URL",
  mongodb: "MONGODB_URL",
  s3: "S3_ENDPOINT and S3_BUCKET",
  kafka: "KAFKA_BROKERS",
  temporal: "TEMPORAL_ADDRESS",
  qdrant: "QDRANT_URL",
};

const noop = async () => undefined;

function fromEnvironment(kind: ServerKind, env: NodeJS.ProcessEnv): RunningServer | null {
  switch (kind) {
    case "eventstoredb":
      return env.EVENTSTORE_URL ? { url: env.EVENTSTORE_URL, env: {}, stop: noop } : null;
    case "mongodb":
      return env.MONGODB_URL ? { url: env.MONGODB_URL, env: {}, stop: noop } : null;
    case "s3":
      return env.S3_ENDPOINT && env.S3_BUCKET
        ? {
            url: env.S3_ENDPOINT,
            env: {
              S3_BUCKET: env.S3_BUCKET,
              S3_REGION: env.S3_REGION ?? "us-east-1",
              ...(env.AWS_ACCESS_KEY_ID ? { AWS_ACCESS_KEY_ID: env.AWS_ACCESS_KEY_ID } : {}),
              ...(env.AWS_SECRET_ACCESS_KEY ? { AWS_SECRET_ACCESS_KEY: env.AWS_SECRET_ACCESS_KEY } : {}),
            },
            stop: noop,
          }
        : null;
    case "kafka":
      return env.KAFKA_BROKERS ? { url: env.KAFKA_BROKERS, env: {}, stop: noop } : null;
    case "temporal":
      return env.TEMPORAL_ADDRESS ? { url: env.TEMPORAL_ADDRESS, env: {}, stop: noop } : null;
    case "qdrant":
      return env.QDRANT_URL
        ? { url: env.QDRANT_URL, env: env.QDRANT_API_KEY ? { QDRANT_API_KEY: env.QDRANT_API_KEY } : {}, stop: noop }
        : null;
  }
}

/** null when a Docker engine answers, else why not. */
export async function dockerUnavailableReason(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const host = env.DOCKER_HOST;
  let target: NetConnectOpts;
  if (host?.startsWith("tcp://")) {
    const url = new URL(host.replace(/^tcp:/, "http:"));
    target = { host: url.hostname, port: Number(url.port || 2375) };
  } else {
    const path = host?.startsWith("unix://") ? host.slice("unix://".length) : "/var/run/docker.sock";
    if (!existsSync(path)) return `no Docker engine (${path} does not exist)`;
    target = { path };
  }
  return new Promise((resolve) => {
    const socket = connect(target);
    const done = (reason: string | null) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(2_000, () => done("no Docker engine (connection timed out)"));
    socket.once("connect", () => done(null));
    socket.once("error", (error) => done(`no Docker engine (${error.message})`));
  });
}

export async function serverFor(kind: ServerKind, env: NodeJS.ProcessEnv = process.env): Promise<ServerPlan> {
  const configured = fromEnvironment(kind, env);
  if (configured) return { kind, source: `${VARIABLES[kind]} from the environment`, start: async () => configured };
  const dockerProblem = await dockerUnavailableReason(env);
  if (dockerProblem) return { kind, skip: `${VARIABLES[kind]} is not set and there is ${dockerProblem}` };
  return { kind, source: "Testcontainers", start: () => startContainer(kind) };
}

/**
 * Registers beforeAll/afterAll that start the planned server once for the file
 * (pulling an image can take minutes) and returns a getter for it.
 */
export function useServer(plan: { start(): Promise<RunningServer> }): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await plan.start();
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
  }, 120_000);
  return () => {
    if (!server) throw new Error("the server for this suite is not running");
    return server;
  };
}

async function startContainer(kind: ServerKind): Promise<RunningServer> {
  // Loaded only when a Docker engine exists: the library probes for one on import of some entry points.
  const { GenericContainer, Wait } = await import("testcontainers");
  switch (kind) {
    case "eventstoredb": {
      const container = await new GenericContainer("eventstore/eventstore:24.10")
        .withEnvironment({
          EVENTSTORE_INSECURE: "true",
          EVENTSTORE_MEM_DB: "true",
          EVENTSTORE_CLUSTER_SIZE: "1",
          EVENTSTORE_RUN_PROJECTIONS: "None",
          EVENTSTORE_ENABLE_ATOM_PUB_OVER_HTTP: "true",
        })
        .withExposedPorts(2113)
        .withWaitStrategy(Wait.forHttp("/health/live", 2113).forStatusCodeMatching((code) => code === 204 || code === 200))
        .withStartupTimeout(180_000)
        .start();
      return {
        url: `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`,
        env: {},
        stop: async () => void (await container.stop()),
      };
    }
    case "mongodb": {
      const container = await new GenericContainer("mongo:7")
        .withCommand(["--replSet", "rs0", "--bind_ip_all"])
        .withExposedPorts(27017)
        .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
        .withStartupTimeout(180_000)
        .start();
      // Transactions need a replica set: a single-node one, initiated here.
      await container.exec([
        "mongosh",
        "--quiet",
        "--eval",
        "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: 'localhost:27017' }] })",
      ]);
      for (let i = 0; i < 60; i++) {
        const { output } = await container.exec(["mongosh", "--quiet", "--eval", "db.hello().isWritablePrimary"]);
        if (output.trim().endsWith("true")) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      return {
        url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/?directConnection=true`,
        env: {},
        stop: async () => void (await container.stop()),
      };
    }
    case "s3": {
      const container = await new GenericContainer("minio/minio:latest")
        .withCommand(["server", "/data"])
        .withEnvironment({ MINIO_ROOT_USER: "minioadmin", MINIO_ROOT_PASSWORD: "minioadmin" })
        .withExposedPorts(9000)
        .withWaitStrategy(Wait.forHttp("/minio/health/live", 9000))
        .withStartupTimeout(180_000)
        .start();
      return {
        url: `http://${container.getHost()}:${container.getMappedPort(9000)}`,
        env: {
          S3_BUCKET: "docuchat-test",
          S3_REGION: "us-east-1",
          AWS_ACCESS_KEY_ID: "minioadmin",
          AWS_SECRET_ACCESS_KEY: "minioadmin",
        },
        stop: async () => void (await container.stop()),
      };
    }
    case "kafka": {
      // The broker advertises the address clients must use, so the host port is fixed before start.
      const port = await freePort();
      const container = await new GenericContainer("apache/kafka:3.9.0")
        .withEnvironment({
          KAFKA_NODE_ID: "1",
          KAFKA_PROCESS_ROLES: "broker,controller",
          KAFKA_LISTENERS: "PLAINTEXT://:9092,CONTROLLER://:9093",
          KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://localhost:${port}`,
          KAFKA_CONTROLLER_LISTENER_NAMES: "CONTROLLER",
          KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
          KAFKA_CONTROLLER_QUORUM_VOTERS: "1@localhost:9093",
          KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: "1",
          KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: "1",
          KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: "1",
          KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: "0",
        })
        .withExposedPorts({ container: 9092, host: port })
        .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
        .withStartupTimeout(180_000)
        .start();
      return { url: `localhost:${port}`, env: {}, stop: async () => void (await container.stop()) };
    }
    case "temporal": {
      const container = await new GenericContainer("temporalio/admin-tools:latest")
        .withEntrypoint(["temporal"])
        .withCommand(["server", "start-dev", "--ip", "0.0.0.0", "--headless"])
        .withExposedPorts(7233)
        .withWaitStrategy(Wait.forListeningPorts())
        .withStartupTimeout(180_000)
        .start();
      return {
        url: `${container.getHost()}:${container.getMappedPort(7233)}`,
        env: {},
        stop: async () => void (await container.stop()),
      };
    }
    case "qdrant": {
      // 1.18 or later: the adapter adds a dense vector per dimension to an existing collection.
      const container = await new GenericContainer("qdrant/qdrant:v1.18.0")
        .withExposedPorts(6333)
        .withWaitStrategy(Wait.forHttp("/readyz", 6333))
        .withStartupTimeout(180_000)
        .start();
      return {
        url: `http://${container.getHost()}:${container.getMappedPort(6333)}`,
        env: {},
        stop: async () => void (await container.stop()),
      };
    }
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

function findBinary(name: string): string | null {
  for (const dir of (process.env.PATH ?? "").split(delimiter).concat(["/usr/bin", "/usr/sbin", "/usr/local/bin"])) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

export type RedisPlan = { skip: string } | { skip?: undefined; source: string; start(): Promise<RunningServer> };

/**
 * Redis for the BullMQ suites: REDIS_URL when set, else a throw-away
 * `redis-server` (Debian package redis-server, installed by
 * scripts/install-system-deps.sh) on a free port, without persistence.
 */
export function redisFor(env: NodeJS.ProcessEnv = process.env): RedisPlan {
  if (env.REDIS_URL) {
    const url = env.REDIS_URL;
    return { source: "REDIS_URL from the environment", start: async () => ({ url, env: {}, stop: noop }) };
  }
  const binary = findBinary("redis-server");
  if (!binary) {
    return { skip: "REDIS_URL is not set and redis-server is not installed (apt-get install redis-server, or bash scripts/install-system-deps.sh)" };
  }
  return { source: binary, start: () => startRedisServer(binary) };
}

async function startRedisServer(binary: string): Promise<RunningServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    env: {},
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
