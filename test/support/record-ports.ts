import type { Records } from '../../lambdas/adapters/compose.ts';

/** Every record port a domain function may ask for, all answered by one store (the DynamoDB adapter over dynalite or moto). */
export const portsOf = (store: Records) => ({
  keys: store,
  projects: store,
  sandboxIssues: store,
  quotas: store,
  jobs: store,
  jobQueries: store,
  webhooks: store,
  eventClaims: store,
  deliveries: store,
  usage: store,
});
