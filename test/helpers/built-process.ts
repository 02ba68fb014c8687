/**
 * The built service (`node dist/src/main.js`) as a process of its own, as `npm start` or an orchestrator
 * starts a role: its environment is `env` and PATH, nothing else of the test process's, so no variable of
 * the machine's changes what a test sees.
 */
import { fileURLToPath } from 'node:url';
import { type ServiceOptions, type ServiceProcess, startServiceProcess } from '../../scripts/service-process.js';

export const MAIN = fileURLToPath(new URL('../../dist/src/main.js', import.meta.url));

export type BuiltProcess = ServiceProcess<RegExpExecArray>;

/** Starts it with `env` (and PATH); see startServiceProcess for `ready` (the engine's origin in [1] by default). */
export const startBuilt = (
  env: Record<string, string>,
  options: Pick<ServiceOptions<RegExpExecArray>, 'ready' | 'uid'> = {},
): Promise<BuiltProcess> =>
  startServiceProcess(MAIN, { PATH: process.env.PATH ?? '', ...env }, { ...options, keepOutput: true });
