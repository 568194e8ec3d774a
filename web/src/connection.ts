// The page's session with the server: one WebSocket to /ws on the page's own host and port, binary
// frames of one protobuf message each. It greets as a guest watcher, answers the server's Ping,
// pings when idle (the server closes silent sessions), and reconnects after a drop with a growing
// pause; whoever uses it re-asks what it was following in onOpen, as the desktop client does.
import { ClientMessage, ServerMessage, decodeServer, encodeClient } from './proto';

export type Status = 'connecting' | 'online' | 'offline';

export interface ConnectionHandlers {
  onOpen(): void;                        // greeted: (re)send WatchGame / ListGames here
  onMessage(m: ServerMessage): void;     // every message but replies awaited with request()
  onStatus(s: Status): void;
}

const KEEPALIVE_MS = 30_000;
const MAX_RETRY_MS = 5_000;

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private retryMs = 250;
  private waiting = new Map<number, (m: ServerMessage) => void>();
  private keepalive: ReturnType<typeof setInterval> | null = null;
  private greeted = false;

  constructor(private readonly handlers: ConnectionHandlers) {}

  start(): void {
    // After a drop the page stays "offline" until greeted again, however many tries that takes.
    this.handlers.onStatus(this.greeted ? 'offline' : 'connecting');
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      this.send({ hello: { client: 'xiangqi-web/0.1', playerName: 'watcher', protocolVersion: 1 } });
    };
    ws.onmessage = (e: MessageEvent) => {
      if (!(e.data instanceof ArrayBuffer)) return;  // the protocol is binary only
      const m = decodeServer(new Uint8Array(e.data));
      if (m.body === 'ping') { this.send({ pong: { nonce: m.ping!.nonce } }); return; }
      if (m.body === 'welcome') {
        this.retryMs = 250;
        this.greeted = true;
        this.handlers.onStatus('online');
        this.handlers.onOpen();
        return;
      }
      const id = Number(m.requestId ?? 0);
      const resolve = id ? this.waiting.get(id) : undefined;
      if (resolve) { this.waiting.delete(id); resolve(m); return; }
      this.handlers.onMessage(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.waiting.clear();  // their answers died with the socket; onOpen asks again
      this.handlers.onStatus('offline');
      setTimeout(() => this.start(), this.retryMs);
      this.retryMs = Math.min(MAX_RETRY_MS, this.retryMs * 2);
    };
    if (!this.keepalive) this.keepalive = setInterval(() => this.send({ ping: { nonce: Date.now() } }), KEEPALIVE_MS);
  }

  // Sends a request; returns its request id (0 when offline: the caller retries in onOpen).
  send(body: Omit<ClientMessage, 'requestId'>): number {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return 0;
    const requestId = this.nextId++;
    // protobufjs writes into a plain ArrayBuffer, never a shared one.
    this.ws.send(encodeClient({ ...body, requestId }) as Uint8Array<ArrayBuffer>);
    return requestId;
  }

  // Sends a request and resolves with its reply (an Error included); never resolves when the
  // connection drops first.
  request(body: Omit<ClientMessage, 'requestId'>): Promise<ServerMessage> {
    return new Promise((resolve) => {
      const id = this.send(body);
      if (id) this.waiting.set(id, resolve);
    });
  }
}
