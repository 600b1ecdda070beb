/**
 * Which processes that stream answers are alive (issue 42). Each such process
 * holds a lease while it runs and bumps its count every few seconds; a
 * process that stops cleanly gives its lease back, one that is killed simply
 * stops bumping. Shared by every process of an installation.
 */
export interface ProcessLease {
  processId: string;
  /** How many times the holder has renewed: a count that stops moving means the holder is gone. */
  renewals: number;
}

export interface ProcessLeases {
  /** The process this runs in: answers it begins carry this id. */
  readonly processId: string;
  held(): Promise<ProcessLease[]>;
  /** Drops the leases of processes judged gone, so the table holds only the living. */
  forget(processIds: string[]): Promise<void>;
}
