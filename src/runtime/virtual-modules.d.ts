// Modules that exist only in the executable's bundle: scripts/exe-bundle.ts resolves them at build time.

declare module 'juralite-exe:embedded-files' {
  /** The data files modules read by URL, keyed by their path in the repository (see embedded-files.ts). */
  const files: Readonly<Record<string, string>>;
  export default files;
}

declare module 'juralite-exe:tinypool-child' {}

declare module 'juralite-exe:app-source' {
  /** The application bundle (CommonJS) that sea-bootstrap.ts runs. */
  const source: string;
  export default source;
}
