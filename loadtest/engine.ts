import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';

/** An engine started as its own process for a load test, as it runs in production. */
export interface Engine {
  process: ChildProcess;
  port: number;
  url: string;
}

/** This build's entry point. */
export const THIS_MAIN = fileURLToPath(new URL('../src/main.js', import.meta.url));

/**
 * Starts the engine (`main`: LOADTEST_MAIN, another build's main.js for a baseline, or this build's) on a
 * port of the system's choosing unless LOADTEST_PORT names one: uWS listens with SO_REUSEPORT, so a fixed
 * port that another server already listens on would silently split the traffic between the two; such a
 * port is refused. The metering store is kept in memory unless told otherwise: a running `npm start` holds
 * ./data's.
 */
export async function startEngine(
  env: NodeJS.ProcessEnv = {},
  main: string = process.env.LOADTEST_MAIN ?? THIS_MAIN,
): Promise<Engine> {
  const fixed = Number(process.env.LOADTEST_PORT ?? 0);
  if (fixed && (await listening(fixed))) throw new Error(`port ${fixed} is in use: choose another, or 0`);
  const child = spawn(process.execPath, [main], {
    env: {
      QR_DATA_DIR: 'memory://',
      ...process.env,
      ...env,
      PORT: process.env.LOADTEST_PORT ?? '0',
      HOST: '127.0.0.1',
      QR_ROLE: 'engine',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const listening = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(d.toString());
      if (listening) resolve(Number(listening[1]));
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { process: child, port, url: `http://127.0.0.1:${port}` };
}

/** Whether something accepts connections on a loopback port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
