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

/**
 * Compiles one user may have in flight, counted across every web process (on
 * the shared blob store); compiles running at once on the process that runs
 * jobs, and of those, how many may be one user's: the other slot stays free
 * for everyone else, so a user's endless documents never make another wait.
 */
export const COMPILES_PER_USER = 2;
export const COMPILES_IN_ALL = 2;
export const RUNNING_PER_USER = 1;
/** How long a request waits for its compile: the sandbox's own wall clock plus time in the queue. */
const WAIT_MS = 90_000;
/** A compile folder older than this belongs to a request that is gone (a crashed process): it no longer counts. */
const IN_FLIGHT_MS = WAIT_MS + 30_000;
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
  /** Running compiles per user, and the jobs waiting for a slot in the order they came. */
  private readonly running = new Map<string, number>();
  private readonly waiting: { userId: string; start: () => void }[] = [];

  constructor(
    @inject(TOKENS.LatexCompiler) private readonly compiler: LatexCompiler,
    @inject(TOKENS.JobQueue) private readonly jobs: JobQueue,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
  ) {}

  /**
   * With `waitForSlot` (a download the user asked for), a compile over the
   * user's limit waits its turn, up to the usual wait, instead of being refused.
   */
  async compile(userId: string, source: string, options: { waitForSlot?: boolean } = {}): Promise<Compiled> {
    // Refused here, before it is stored or queued: no resume is this large.
    const bytes = Buffer.byteLength(source, "utf8");
    if (bytes > MAX_RESUME_BYTES) {
      const message = `The resume is too large to compile (${(bytes / 1024 / 1024).toFixed(1)} MB; at most ${MAX_RESUME_BYTES / 1024} KB).`;
      return { ok: false, error: { code: "SOURCE_TOO_LARGE", message, line: null, log: "" }, ms: 0 };
    }
    const compileId = this.ids.next();
    const dir = folder(userId, compileId);
    try {
      // Stored first, then counted: two web processes racing both see both compiles, and neither goes over the limit.
      await this.blobs.put(`${dir}resume.tex`, Buffer.from(source, "utf8"), { contentType: "application/x-tex", metadata: { startedAt: String(Date.now()) } });
      let mine = await this.inFlight(userId, compileId);
      // Stored, it holds its place: compiles that came later count it, so the wait is first come, first served.
      const deadline = Date.now() + WAIT_MS;
      while (mine > COMPILES_PER_USER && options.waitForSlot && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        mine = await this.inFlight(userId, compileId);
      }
      if (mine > COMPILES_PER_USER) {
        // Those ahead include other refused requests not yet cleaned up: the ones running are the limit's worth.
        throw new DomainError("COMPILE_BUSY", `You have ${COMPILES_PER_USER} compiles running; wait for them to finish.`);
      }
      await this.jobs.enqueue(COMPILE_JOB, { userId, compileId }, { jobId: compileId, maxAttempts: 2 });
      const outcome = await this.awaitOutcome(dir);
      if (!outcome.ok) return { ok: false, error: outcome.error!, ms: outcome.ms };
      const pdf = await this.read(`${dir}resume.pdf`);
      if (!pdf) throw new DomainError("COMPILE_LOST", "The compiled PDF was lost; compile again.");
      return { ok: true, svgPages: outcome.svgPages ?? [], pageCount: outcome.pageCount ?? 0, pdf, ms: outcome.ms };
    } finally {
      await this.blobs.deletePrefix(dir).catch(() => undefined);
    }
  }

  /**
   * The user's compiles stored and not yet answered, whichever web process took
   * them, up to and including this one: only those that came first (ids sort by
   * time) count against it, so of several racing, the latest are refused.
   */
  private async inFlight(userId: string, compileId: string): Promise<number> {
    const sources = (await this.blobs.list(`compiles/${userId}/`)).filter((blob) => blob.key.endsWith("/resume.tex"));
    return sources.filter((blob) => blob.key.split("/")[2]! <= compileId && Date.now() - Number(blob.metadata.startedAt ?? 0) < IN_FLIGHT_MS).length;
  }

  /** The `latex.compile` job (the module registers it on the job queue). */
  async runJob(payload: { userId: string; compileId: string }) {
    const dir = folder(payload.userId, payload.compileId);
    const source = await this.read(`${dir}resume.tex`);
    // The request gave up and cleaned up: nothing to compile.
    if (!source) return;
    await this.acquire(payload.userId);
    let outcome: StoredOutcome;
    const started = Date.now();
    try {
      const result = await this.compiler.compile(source.toString("utf8"));
      if (result.ok) {
        await this.blobs.put(`${dir}resume.pdf`, result.pdf, { contentType: "application/pdf" });
        outcome = { ok: true, svgPages: result.svgPages, pageCount: result.pageCount, ms: result.ms };
      } else {
        outcome = { ok: false, error: result.error, ms: result.ms };
      }
    } catch (error) {
      // The request waits for an outcome: a compile that broke answers now, with why, rather than at the wait's end.
      const message = `The compile failed: ${error instanceof Error ? error.message : String(error)}`;
      outcome = { ok: false, error: { code: "LATEX_ERROR", message, line: null, log: "" }, ms: Date.now() - started };
    } finally {
      this.release(payload.userId);
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

  /** A slot for one of the user's compiles: at once when one is free and the user is under their share, else in turn. */
  private acquire(userId: string): Promise<void> {
    return new Promise<void>((start) => {
      this.waiting.push({ userId, start });
      this.startWaiting();
    });
  }

  private release(userId: string) {
    const left = (this.running.get(userId) ?? 1) - 1;
    if (left > 0) this.running.set(userId, left);
    else this.running.delete(userId);
    this.startWaiting();
  }

  /** Starts waiting compiles, oldest first, skipping users who already run their share. */
  private startWaiting() {
    let total = [...this.running.values()].reduce((sum, n) => sum + n, 0);
    for (let i = 0; i < this.waiting.length && total < COMPILES_IN_ALL; ) {
      const { userId, start } = this.waiting[i]!;
      const mine = this.running.get(userId) ?? 0;
      if (mine >= RUNNING_PER_USER) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.running.set(userId, mine + 1);
      total++;
      start();
    }
  }

  private async read(key: string): Promise<Buffer | null> {
    const stored = await this.blobs.get(key);
    if (!stored) return null;
    const parts: Buffer[] = [];
    for await (const part of stored.body) parts.push(part as Buffer);
    return Buffer.concat(parts);
  }
}
