/**
 * Hosts for the failover tests: network namespaces (`ip netns`), each with one veth on a bridge, on a /24 of
 * 10.77.0.0/16 chosen per run. The bridge lives in a namespace of its own (the switch), not in the root
 * namespace: there, host-to-host frames would pass the machine's firewall (with Docker's engine running,
 * bridged traffic goes through iptables' FORWARD chain, whose policy Docker sets to DROP). The root
 * namespace has a port on the switch too (`.1`): the network's way to what runs on this machine's
 * loopback (PostgreSQL, Redis, a fake LLM vendor), where TCP forwarders in the test process take
 * connections and pass them to 127.0.0.1. Needs root and iproute2; every step that fails throws, so a
 * suite built on it fails rather than skips.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

const ip = (...args: string[]): string => execFileSync('ip', args, { encoding: 'utf8', stdio: 'pipe' });

/** A /24 no interface of this machine is on yet. */
function freeSubnet(): number {
  const used = ip('-4', '-o', 'addr', 'show');
  for (;;) {
    const n = 1 + (randomBytes(1)[0]! % 254);
    if (!used.includes(` 10.77.${n}.`)) return n;
  }
}

export interface Host {
  /** The namespace's name. */
  ns: string;
  /** Its address on the test network. */
  address: string;
}

export interface RoleProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null after a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
}

export interface TestNetwork {
  /** The root namespace's address on the network. */
  gateway: string;
  /** A new host on the network: a namespace with loopback up and one address. */
  host(): Host;
  /** Takes connections at gateway:port and passes them to 127.0.0.1:`port`; resolves with the port. */
  forward(port: number): Promise<number>;
  /** Runs `node <script>` inside `host` with `env` (nothing of this process's environment but PATH). */
  run(host: Host, script: string, env: Record<string, string>): RoleProcess;
  /** Kills what `run` started, closes the forwarders, deletes the namespaces (the switch's with its bridge). */
  close(): Promise<void>;
}

export function createTestNetwork(): TestNetwork {
  const tag = randomBytes(3).toString('hex');
  const subnet = freeSubnet();
  const bridge = `qfb${tag}`;
  const switchNs = `qfs${tag}`;
  const rootPort = `qfr${tag}`;
  const namespaces: string[] = [switchNs];
  const servers: Server[] = [];
  const sockets = new Set<Socket>();
  const processes: RoleProcess[] = [];
  const gateway = `10.77.${subnet}.1`;
  /** A veth pair whose `outside` end is a port of the bridge (moved into the switch's namespace). */
  const plug = (outside: string, inside: string) => {
    ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
    ip('link', 'set', outside, 'netns', switchNs);
    ip('-n', switchNs, 'link', 'set', outside, 'master', bridge, 'up');
  };
  try {
    ip('netns', 'add', switchNs);
    ip('-n', switchNs, 'link', 'add', bridge, 'type', 'bridge');
    ip('-n', switchNs, 'link', 'set', bridge, 'up');
    plug(`qfu${tag}`, rootPort);
    ip('addr', 'add', `${gateway}/24`, 'dev', rootPort);
    ip('link', 'set', rootPort, 'up');
  } catch (e) {
    try {
      ip('netns', 'del', switchNs);
    } catch {}
    throw new Error(`cannot build the test network (root and iproute2 are needed): ${(e as Error).message}`);
  }

  const network: TestNetwork = {
    gateway,
    host() {
      // .1 is the root namespace's port; hosts are .2 on (the switch's namespace is the list's first).
      const k = namespaces.length + 1;
      const ns = `qfn${tag}-${k}`;
      const outside = `qfv${tag}${k}`;
      const inside = `qfp${tag}${k}`;
      namespaces.push(ns);
      ip('netns', 'add', ns);
      plug(outside, inside);
      ip('link', 'set', inside, 'netns', ns);
      ip('-n', ns, 'addr', 'add', `10.77.${subnet}.${k}/24`, 'dev', inside);
      ip('-n', ns, 'link', 'set', inside, 'up');
      ip('-n', ns, 'link', 'set', 'lo', 'up');
      return { ns, address: `10.77.${subnet}.${k}` };
    },
    forward(port) {
      const server = createServer((client) => {
        const upstream = connect(port, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => {
            sockets.delete(s);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      servers.push(server);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, gateway, () => resolve(port));
      });
    },
    run(host, script, env) {
      const child = spawn('ip', ['netns', 'exec', host.ns, process.execPath, script], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const role = { child, exited, output: () => output };
      processes.push(role);
      return role;
    },
    async close() {
      for (const p of processes) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await Promise.all(processes.map((p) => p.exited));
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
      const problems: string[] = [];
      for (const ns of namespaces) {
        try {
          ip('netns', 'del', ns);
        } catch (e) {
          problems.push((e as Error).message);
        }
      }
      // The root namespace's port goes with its peer, the bridge with the switch's namespace.
      if (problems.length > 0) throw new Error(`test network not fully removed: ${problems.join('; ')}`);
    },
  };
  return network;
}

/** Waits until `url` answers 200 (tried every 100 ms), or throws after `ms` with `describe()` in the message. */
export async function untilReady(url: string, ms: number, describe: () => string): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < ms) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {}
    await sleep(100);
  }
  throw new Error(`${url} not ready within ${ms} ms:\n${describe()}`);
}
