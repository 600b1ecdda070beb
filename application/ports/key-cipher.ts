/**
 * Seals secrets users give us (provider API keys) for storage at rest.
 * Sealed values name the key that sealed them, so the secret can be rotated:
 * old values still open with a previous key and are re-sealed on use.
 */
export interface KeyCipher {
  seal(plaintext: string): string;
  open(sealed: string): string;
  /** True when the value was sealed with a key other than the current one. */
  isStale(sealed: string): boolean;
}
