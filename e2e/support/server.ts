import { execFileSync } from 'node:child_process';

/**
 * The e2e server's port. Unless E2E_PORT is given, the runner picks a free loopback port once (the
 * config imports this first) and hands it to its workers through the environment, so two runs on one
 * machine (CI beside a developer's run) never start on, or test against, each other's server.
 */
if (!process.env.E2E_PORT) process.env.E2E_PORT = String(freeLoopbackPortSync());

export const E2E_PORT = Number(process.env.E2E_PORT);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;

/** A port the kernel just handed out and took back; asked of a child so the answer is synchronous. */
export function freeLoopbackPortSync(): number {
  const script =
    "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}
