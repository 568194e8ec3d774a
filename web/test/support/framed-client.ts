// A player for the browser tests: the desktop client's protocol over TCP or TLS (4-byte big-endian
// length, then one ClientMessage/ServerMessage), as tests/support/test_client.h speaks it in C++.
import net from 'node:net';
import tls from 'node:tls';
import { ClientMessage, ServerMessage, decodeServer, encodeClient } from '../../src/proto';

export class FramedClient {
  private buffer = Buffer.alloc(0);
  private inbox: ServerMessage[] = [];
  private wake: (() => void) | null = null;
  private nextId = 1;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 4) {
        const n = this.buffer.readUInt32BE(0);
        if (this.buffer.length < 4 + n) break;
        this.inbox.push(decodeServer(this.buffer.subarray(4, 4 + n)));
        this.buffer = this.buffer.subarray(4 + n);
      }
      this.wake?.();
    });
  }

  // Connects and greets; the server's certificate is the test's own self-signed one.
  static async connect(port: number, useTls: boolean, name: string): Promise<FramedClient> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s: net.Socket = useTls
        ? tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => resolve(s))
        : net.connect({ host: '127.0.0.1', port }, () => resolve(s));
      s.once('error', reject);
    });
    const client = new FramedClient(socket);
    await client.request({ hello: { client: 'web-test', playerName: name, protocolVersion: 1 } }, 'welcome');
    return client;
  }

  send(body: Omit<ClientMessage, 'requestId'>): number {
    const requestId = this.nextId++;
    const payload = encodeClient({ ...body, requestId });
    const header = Buffer.alloc(4);
    header.writeUInt32BE(payload.length);
    this.socket.write(Buffer.concat([header, payload]));
    return requestId;
  }

  // Sends a request and waits for its reply, which must be `expected` (an Error fails the test).
  async request(body: Omit<ClientMessage, 'requestId'>, expected: string): Promise<ServerMessage> {
    const id = this.send(body);
    const reply = await this.next((m) => Number(m.requestId) === id);
    if (reply.body !== expected) throw new Error(`expected ${expected}, got ${reply.body}: ${reply.error?.message ?? ''}`);
    return reply;
  }

  // The first message (queued or to come) that fits, within 20 s; earlier ones are dropped.
  async next(fits: (m: ServerMessage) => boolean, timeoutMs = 20_000): Promise<ServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.inbox.findIndex(fits);
      if (i >= 0) { const m = this.inbox[i]!; this.inbox.splice(0, i + 1); return m; }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no such message from the server within the time');
      await new Promise<void>((resolve) => { const t = setTimeout(resolve, left); this.wake = () => { clearTimeout(t); resolve(); }; });
    }
  }

  close(): void { this.socket.destroy(); }
}
