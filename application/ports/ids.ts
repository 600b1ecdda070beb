/** Sortable, unguessable ids (UUIDv7). */
export interface IdGenerator {
  next(): string;
}
