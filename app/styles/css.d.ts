/** The Remix classic compiler turns a default CSS import into the stylesheet's URL. */
declare module "*.css" {
  const href: string;
  export default href;
}
