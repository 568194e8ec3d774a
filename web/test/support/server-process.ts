// A real xiangqi-server for a test (names as typed: --accounts off): its own database in a temporary
// folder, port 0, dying with the test (setpriv --pdeathsig) and killed when the test ends.
import { ChildProcess, spawn } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export class ServerProcess {
  private constructor(private readonly child: ChildProcess, readonly port: number, readonly log: () => string) {}

  static async start(binary: string, dir: string, webRoot: string, useTls: boolean): Promise<ServerProcess> {
    const args = ['--pdeathsig', 'KILL', '--', binary, '--listen', '127.0.0.1:0', '--db', join(dir, 'games.db'),
      '--discovery-port', '0', '--rate-limit', '0', '--accounts', 'off', '--web-root', webRoot, '--log-level', 'info'];
    if (!useTls) args.push('--plain');
    const child = spawn('setpriv', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not listen within 20 s:\n${log}`)), 20_000);
      const read = (chunk: Buffer) => {
        log += chunk.toString();
        const m = /listening on [\d.]+:(\d+)/.exec(log);
        if (m) { clearTimeout(timer); resolve(Number(m[1])); }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${log}`)));
    });
    return new ServerProcess(child, port, () => log);
  }

  // Chromium's --ignore-certificate-errors-spki-list takes the base64 SHA-256 of the certificate's
  // public key: the browser trusts exactly this server's self-signed key and nothing else.
  static spkiHash(dir: string): string {
    const der = createPublicKey(readFileSync(join(dir, 'games.db.cert.pem'))).export({ type: 'spki', format: 'der' });
    return createHash('sha256').update(der).digest('base64');
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}
