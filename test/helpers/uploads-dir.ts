/**
 * The files left in an uploads directory once the service has removed what it no longer needs. An extracted file is
 * removed just after its outcome is recorded (src/uploads/service.ts: recorded first, so a crash between the two
 * leaves an orphan for the next start, never an upload without its file), so a client can see `ready` a moment
 * before the file is gone: wait up to five seconds for the directory to empty.
 */
import { readdirSync } from 'node:fs';

export async function filesLeftIn(dir: string): Promise<string[]> {
  for (let attempt = 0; attempt < 200 && readdirSync(dir).length > 0; attempt++) await new Promise((resolve) => setTimeout(resolve, 25));
  return readdirSync(dir);
}
