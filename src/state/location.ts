// What a --state value names, decided without loading the PostgreSQL client (every command parses it).

/** Whether a --state value names a PostgreSQL database rather than a file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//iu.test(location);
}

/** A password in a connection URL is never logged. */
export function redactedUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/u, '//$1:***@');
}
