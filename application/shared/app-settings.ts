/** The part of configuration the application layer reads (bound to TOKENS.Config). */
export interface AppSettings {
  productName: string;
  adminUsernames: string[];
  isProduction: boolean;
}
