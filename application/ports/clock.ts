/** Time comes through this port so tests can move it (ARCHITECTURE §3). */
export interface Clock {
  now(): Date;
}
