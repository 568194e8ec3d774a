// A TCP relay between the browser and the server that the test can cut: every connection through
// it is destroyed and new ones are refused until restored. The page's WebSocket drops as on a real
// network failure (bytes relayed as they are, so TLS passes through untouched).
import net from 'node:net';

export class CutProxy {
  private readonly open = new Set<net.Socket>();
  private cut = false;
  private constructor(private readonly server: net.Server, readonly port: number) {}

  static async start(target: number): Promise<CutProxy> {
    let proxy: CutProxy | null = null;
    const server = net.createServer((inbound) => {
      if (!proxy || proxy.cut) { inbound.destroy(); return; }
      const outbound = net.connect({ host: '127.0.0.1', port: target });
      for (const s of [inbound, outbound]) {
        proxy.open.add(s);
        s.on('close', () => { proxy!.open.delete(s); inbound.destroy(); outbound.destroy(); });
        s.on('error', () => undefined);
      }
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new CutProxy(server, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  cutAll(): void { this.cut = true; for (const s of this.open) s.destroy(); }
  restore(): void { this.cut = false; }
  close(): void { this.cutAll(); this.server.close(); }
}
