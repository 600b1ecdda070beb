/**
 * A rule of the domain was broken. `code` is stable (routes map it to the
 * spec's message); `message` is the user-facing text.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** A refusal that passes with time: answers carry `Retry-After` with these seconds. */
export class RetryLater extends DomainError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, message);
  }
}

export const isDomainError = (error: unknown): error is DomainError => error instanceof DomainError;

/** Another writer changed the same thing at the same moment, every time it was tried again (issue 30): the user may retry. */
export const CONCURRENT_CHANGE = "CONCURRENT_CHANGE";
export const concurrentChange = () => new DomainError(CONCURRENT_CHANGE, "Someone else changed this; try again.");
