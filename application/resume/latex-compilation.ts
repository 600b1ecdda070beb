import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { IdGenerator } from "#application/ports/ids";
import type { CompileError, LatexCompiler } from "#application/ports/latex-compiler";
import type { JobQueue } from "#application/ports/workflow";
import { MAX_RESUME_BYTES } from "#domain/resume/resume";
import { DomainError } from "#domain/shared/domain-error";

/** The background job that compiles one document (ARCHITECTURE §5 "resume compile"). */
export const COMPILE_JOB = "latex.compile";

/** Compiles running at once for one user (in this web process), and in all on the machine that runs jobs. */
export const COMPILES_PER_USER = 2;
export const COMPILES_IN_ALL = 2;
/** How long a request waits for its compile: the sandbox's own wall clock plus time in the queue. */
const WAIT_MS = 90_000;
const POLL_MS = 50;

export type Compiled =
  | { ok: true; svgPages: string[]; pageCount: number; pdf: Buffer; ms: number }
  | { ok: false; error: CompileError; ms: number };

interface StoredOutcome {
  ok: boolean;
  svgPages?: string[];
  pageCount?: number;
  error?: CompileError;
  ms: number;
}

const folder = (userId: string, compileId: string) => `compiles/${userId}/${compileId}/`;

/**
 * Compiling LaTeX as background jobs (docs/decisions/130): a request puts the
 * source in blob storage, enqueues `latex.compile` and waits for the outcome
 * the job writes back; the job runs the sandboxed compiler, at most
 * COMPILES_IN_ALL at once, so a burst of compiles waits in the queue instead
 * of taking the web server's cores. A user has at most COMPILES_PER_USER in flight.
 */
@injectable()
export class LatexCompilation {
  private readonly inFlight = new Map<string, number>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    @inject(TOKENS.LatexCompiler) private readonly compiler: LatexCompiler,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
  ) {}

  async compile(userId: string, source: string): Promise<Compiled> {
    // Refused here, before it is stored or queued: no resume is this large.
    const bytes = Buffer.byteLength(source, "utf8");
    if (bytes > MAX_RESUME_BYTES) {
      const message = `The resume is too large to compile (${(bytes / 1024 / 1024).toFixed(1)} MB; at most ${MAX_RESUME_BYTES / 1024} KB).`;
      return { ok: false, error: { code: "SOURCE_TOO_LARGE", message, line: null, log: "" }, ms: 0 };
    }
    const mine = this.inFlight.get(userId) ?? 0;
    if (mine >= COMPILES_PER_USER) {
      throw new DomainError("COMPILE_BUSY", `You have ${mine} compiles running; wait for them to finish.`);
    }
    this.inFlight.set(userId, mine + 1);
    const compileId = this.ids.next();
    const dir = folder(userId, compileId);
    try {
      await this.blobs.put(`${dir}resume.tex`, Buffer.from(source, "utf8"), { contentType: "application/x-tex" });
      await this.jobs.enqueue(COMPILE_JOB, { userId, compileId }, { jobId: compileId, maxAttempts: 2 });
      const outcome = await this.awaitOutcome(dir);
      if (!outcome.ok) return { ok: false, error: outcome.error!, ms: outcome.ms };
      const pdf = await this.read(`${dir}resume.pdf`);
      if (!pdf) throw new DomainError("COMPILE_LOST", "The compiled PDF was lost; compile again.");
      return { ok: true, svgPages: outcome.svgPages ?? [], pageCount: outcome.pageCount ?? 0, pdf, ms: outcome.ms };
    } finally {
      const left = (this.inFlight.get(userId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(userId, left);
      else this.inFlight.delete(userId);
      await this.blobs.deletePrefix(dir).catch(() => undefined);
    }
  }

  /** The `latex.compile` job (the module registers it on the job queue). */
  async runJob(payload: { userId: string; compileId: string }) {
    const dir = folder(payload.userId, payload.compileId);
    const source = await this.read(`${dir}resume.tex`);
    // The request gave up and cleaned up: nothing to compile.
    if (!source) return;
    await this.acquire();
    let outcome: StoredOutcome;
    try {
      const result = await this.compiler.compile(source.toString("utf8"));
      if (result.ok) {
        await this.blobs.put(`${dir}resume.pdf`, result.pdf, { contentType: "application/pdf" });
        outcome = { ok: true, svgPages: result.svgPages, pageCount: result.pageCount, ms: result.ms };
      } else {
        outcome = { ok: false, error: result.error, ms: result.ms };
      }
    } finally {
      this.release();
    }
    await this.blobs.put(`${dir}outcome.json`, Buffer.from(JSON.stringify(outcome)), { contentType: "application/json" });
  }

  private async awaitOutcome(dir: string): Promise<StoredOutcome> {
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      const stored = await this.read(`${dir}outcome.json`);
      if (stored) return JSON.parse(stored.toString("utf8")) as StoredOutcome;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new DomainError("COMPILE_TIMEOUT", "The server is busy compiling other resumes; try again in a minute.");
  }

  private async acquire() {
    if (this.running < COMPILES_IN_ALL) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private async read(key: string): Promise<Buffer | null> {
    const stored = await this.blobs.get(key);
    if (!stored) return null;
    const parts: Buffer[] = [];
    for await (const part of stored.body) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }
}
