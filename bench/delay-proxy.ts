import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A TCP proxy, in a process of its own, that holds every chunk for `delayMs`
 * in each direction: a database one network hop away, for a machine whose
 * kernel cannot delay packets itself (no netem). Node's timers make the
 * delay at least `delayMs`, in whole milliseconds; chunks keep their order.
 */
const PROXY_SOURCE = `
const net = require('node:net');
const [host, port, delay] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const server = net.createServer((client) => {
  const upstream = net.connect(port, host);
  client.setNoDelay(true);
  upstream.setNoDelay(true);
  const relay = (from, to) => from.on('data', (chunk) => setTimeout(() => to.destroyed || to.write(chunk), delay));
  relay(client, upstream);
  relay(upstream, client);
  const end = () => { client.destroy(); upstream.destroy(); };
  for (const socket of [client, upstream]) { socket.on('close', end); socket.on('error', end); }
});
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
// a bench that exits without closing it (a failure, an interrupt) takes it along
process.on('disconnect', () => process.exit(0));
`;

export interface DelayProxy {
  /** `url` with its host and port replaced by the proxy's. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a proxy in front of the server `url` names (a PostgreSQL URL), adding `delayMs` each way. */
export async function startDelayProxy(url: string, delayMs: number): Promise<DelayProxy> {
  const target = new URL(url);
  const dir = mkdtempSync(join(tmpdir(), 'mural-delay-proxy-'));
  const script = join(dir, 'proxy.cjs');
  writeFileSync(script, PROXY_SOURCE);
  const child: ChildProcess = fork(script, [target.hostname, target.port || '5432', String(delayMs)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [port] = (await once(child, 'message')) as [number];
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    async close() {
      const exited = once(child, 'exit');
      child.kill();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
