import { randomUUID } from 'node:crypto';
import { generateLiveKey } from './api-key.ts';
import { liveKeyRecord } from './api-keys.ts';
import { invalidRequest } from './errors.ts';
import type { Clock, Projects } from './ports.ts';

export interface CreatedProject {
  project_id: string;
  /** The only time the plaintext exists outside the caller's hands. */
  api_key: string;
}

/** A project and its first live key. `pages` sets a page quota; without it the project has no page limit. */
export async function createProject(
  deps: { projects: Projects; clock: Clock },
  input: { name: string; pages?: number },
): Promise<CreatedProject> {
  const name = input.name.trim();
  if (!name || name.length > 200) throw invalidRequest('A project name is required (1 to 200 characters).');
  if (input.pages !== undefined && !(Number.isInteger(input.pages) && input.pages >= 0)) {
    throw invalidRequest('The page quota must be a whole number of pages, 0 or more.');
  }
  const now = deps.clock.now();
  const apiKey = generateLiveKey();
  const projectId = randomUUID();
  await deps.projects.createProject(
    { id: projectId, name, created_at: now, ...(input.pages !== undefined ? { pages_remaining: input.pages } : {}) },
    liveKeyRecord(apiKey, projectId, now),
  );
  return { project_id: projectId, api_key: apiKey };
}
