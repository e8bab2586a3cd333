// A small evaluator of IAM identity policies, enough for the roles the stack
// deploys: Allow and Deny statements with Action/Resource lists and `*`/`?`
// wildcards. It answers "does this role's policy allow this action on this
// ARN", which is what the deploy suite asks of every AWS call a function makes.
// Anything it does not model (NotAction, NotResource, Condition) is refused
// loudly rather than guessed at, so a new kind of grant cannot pass unread.

export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  Resource?: string | string[];
  NotAction?: unknown;
  NotResource?: unknown;
  Condition?: unknown;
  Principal?: unknown;
  Sid?: string;
}

export interface PolicyDocument {
  Version?: string;
  Statement: PolicyStatement | PolicyStatement[];
}

/** One call as IAM sees it: an action such as `dynamodb:PutItem` on one resource ARN. */
export interface Permission {
  action: string;
  resource: string;
}

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** IAM's wildcard match: `*` any run of characters, `?` one; actions ignore case, ARNs do not. */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const source = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'is' : 's').test(value);
}

export function statementsOf(policies: PolicyDocument[]): PolicyStatement[] {
  const statements = policies.flatMap((p) => list(p.Statement));
  for (const s of statements) {
    const unmodelled = (['NotAction', 'NotResource', 'Condition'] as const).filter((k) => s[k] !== undefined);
    if (unmodelled.length > 0) throw new Error(`policy statement ${JSON.stringify(s)} uses ${unmodelled.join(', ')}, which this evaluator does not model`);
  }
  return statements;
}

const matches = (s: PolicyStatement, { action, resource }: Permission) =>
  list(s.Action).some((a) => wildcardMatch(a, action, true)) && list(s.Resource).some((r) => wildcardMatch(r, resource));

/** Explicit Deny wins, then any Allow; otherwise the implicit deny. */
export function isAllowed(policies: PolicyDocument[], permission: Permission): boolean {
  const statements = statementsOf(policies);
  if (statements.some((s) => s.Effect === 'Deny' && matches(s, permission))) return false;
  return statements.some((s) => s.Effect === 'Allow' && matches(s, permission));
}

/** Every action a policy names (wildcards as written), for reports and the least-privilege check. */
export function grantedPermissions(policies: PolicyDocument[]): Permission[] {
  return statementsOf(policies)
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) => list(s.Action).flatMap((action) => list(s.Resource).map((resource) => ({ action, resource }))));
}

/** The same policies with one action taken out of every statement: what a role that lacks it would hold. */
export function withoutAction(policies: PolicyDocument[], action: string): PolicyDocument[] {
  return policies.map((p) => ({
    ...p,
    Statement: list(p.Statement)
      .map((s) => ({ ...s, Action: list(s.Action).filter((a) => a.toLowerCase() !== action.toLowerCase()) }))
      .filter((s) => s.Action.length > 0),
  }));
}
