// What the e2e suite talks to: the local server it starts itself (the default),
// or a deployed stack — AWS or LocalStack — when DOCEX_URL and DOCEX_API_KEY
// are set:
//
//   DOCEX_URL=https://abc.execute-api.eu-west-1.amazonaws.com/prod/ DOCEX_API_KEY=kz_... npm run test:e2e
//
// A deployed stack cannot be restarted, bound to loopback source addresses or
// handed more projects by the tests, so tests that need those powers ask
// `localOnly(reason)` and skip with the reason printed.

import { startServer, type RunningServer } from './local-server.ts';

export interface Project {
  project_id: string;
  api_key: string;
}

export interface Target {
  url: string;
  /** True for a deployed stack. */
  remote: boolean;
  /** A fresh project locally; against a deployed stack, the one of DOCEX_API_KEY, once. */
  createProject(name: string, pages?: number): Promise<Project>;
  stop(): Promise<void>;
}

const deployed = (): { url: string; apiKey: string } | null => {
  const url = process.env.DOCEX_URL;
  const apiKey = process.env.DOCEX_API_KEY;
  if (!url && !apiKey) return null;
  if (!url || !apiKey) throw new Error('Set both DOCEX_URL (the stack\'s ApiUrl output) and DOCEX_API_KEY (from `npm run admin -- create-project --aws`), or neither to test the local server.');
  return { url, apiKey };
};

export const targetsDeployedStack = (): boolean => deployed() !== null;

/** True (and says why, once per reason) when the target is a deployed stack and the test needs the local server. */
const announced = new Set<string>();
export function localOnly(reason: string): boolean {
  const remote = deployed();
  if (!remote) return false;
  if (!announced.has(reason)) console.warn(`[e2e against ${remote.url}] skipping: ${reason}`);
  announced.add(reason);
  return true;
}

export async function startTarget(opts: Parameters<typeof startServer>[0] = {}): Promise<Target> {
  const remote = deployed();
  if (!remote) return localTarget(await startServer(opts));
  console.warn(`[e2e] testing the deployed stack at ${remote.url}`);
  let handedOut = false;
  return {
    url: remote.url,
    remote: true,
    createProject: async () => {
      if (handedOut) {
        throw new Error('A deployed target has one project, the one of DOCEX_API_KEY; guard tests that need a second one with localOnly().');
      }
      handedOut = true;
      // The API does not tell a key its project id; no e2e test needs it.
      return { project_id: 'the project of DOCEX_API_KEY', api_key: remote.apiKey };
    },
    stop: async () => {},
  };
}

const localTarget = (server: RunningServer): Target => ({
  url: server.url,
  remote: false,
  createProject: (name, pages) => server.createProject(name, pages),
  stop: () => server.stop(),
});
