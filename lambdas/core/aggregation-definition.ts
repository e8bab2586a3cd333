// The aggregation state machine (DESIGN.md section 4), as Amazon States
// Language. The one definition: the CDK stack synthesises it with the Lambda
// ARNs, the local server runs it with its handlers (lib/local/state-machine.ts),
// and the AWS test tier creates it on the endpoint.
//
// The state carries a manifest's key, batches of positions in it and a few
// numbers per batch, never text nor a list of every part (Step Functions
// payloads are limited to 256 KB; lib/local/state-machine.ts enforces it).
//
// A step that still fails after its retries is caught and routed to FailJob,
// which fails the job (so it does not stay `aggregating` for ever), then the
// execution ends failed, so the failure still raises the alarm.

export interface AggregationResources {
  /** Invoked once per batch of parts: loads and checks them, stores their measurements, answers where. */
  part: string;
  /** Invoked once with every part's measurements: merges, stores the result, sets the terminal status. */
  finish: string;
  /** Invoked when measuring or finishing failed for good: fails the job, returns its quota, announces it. */
  fail: string;
}

/** Where a caught error goes: Step Functions puts `{ Error, Cause }` at ResultPath of the state's input. */
export interface CatchRule {
  ErrorEquals: string[];
  ResultPath: string;
  Next: string;
}

export interface TaskState {
  Type: 'Task';
  Resource: string;
  Retry?: { ErrorEquals: string[]; IntervalSeconds: number; MaxAttempts: number; BackoffRate: number }[];
  Catch?: CatchRule[];
  ResultPath?: string;
  Next?: string;
  End?: true;
}

export interface MapState {
  Type: 'Map';
  ItemsPath: string;
  ItemSelector: Record<string, string>;
  MaxConcurrency: number;
  ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }; StartAt: string; States: Record<string, TaskState> };
  Catch?: CatchRule[];
  ResultPath: string;
  Next?: string;
  End?: true;
}

/** Ends the execution as failed, with this error and cause. */
export interface FailState {
  Type: 'Fail';
  Error: string;
  Cause: string;
}

export type State = TaskState | MapState | FailState;

export interface StateMachineDefinition {
  Comment: string;
  StartAt: string;
  States: Record<string, State>;
}

/** Transient Lambda trouble (throttles, a crashed container) is retried; each task is idempotent, so a retry is safe. */
const retry: TaskState['Retry'] = [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 2, MaxAttempts: 4, BackoffRate: 2 }];

/**
 * States.ALL catches everything a task or the Map can throw once its retries
 * are spent; the error lands beside the job id, which the fail step needs.
 */
const failJob: CatchRule[] = [{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'FailJob' }];

/** The Error of a failed execution whose job was failed by FailJob (what the alarm's execution history shows). */
export const AGGREGATION_FAILED_ERROR = 'docex.AggregationFailed';

/** How many parts are measured at once: bounded so a 100-part document does not burst 100 Lambdas. */
export const AGGREGATION_MAP_CONCURRENCY = 8;

export function aggregationDefinition(resources: AggregationResources): StateMachineDefinition {
  return {
    Comment: 'docex: merge the parts of a document extracted in chunks into one result',
    StartAt: 'MeasureParts',
    States: {
      MeasureParts: {
        Type: 'Map',
        ItemsPath: '$.batches',
        ItemSelector: { 'job_id.$': '$.job_id', 'project_id.$': '$.project_id', 'manifest.$': '$.manifest', 'batch.$': '$$.Map.Item.Value' },
        MaxConcurrency: AGGREGATION_MAP_CONCURRENCY,
        ItemProcessor: {
          ProcessorConfig: { Mode: 'INLINE' },
          StartAt: 'AggregatePart',
          States: { AggregatePart: { Type: 'Task', Resource: resources.part, Retry: retry, End: true } },
        },
        ResultPath: '$.measured',
        Catch: failJob,
        Next: 'Finish',
      },
      Finish: { Type: 'Task', Resource: resources.finish, Retry: retry, Catch: failJob, End: true },
      FailJob: { Type: 'Task', Resource: resources.fail, Retry: retry, Next: 'Failed' },
      Failed: {
        Type: 'Fail',
        Error: AGGREGATION_FAILED_ERROR,
        Cause: 'Merging the parts failed after its retries; FailJob failed the job. The caught error is in the input of FailJob.',
      },
    },
  };
}
