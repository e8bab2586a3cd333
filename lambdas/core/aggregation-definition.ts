// The aggregation state machine (DESIGN.md section 4), as Amazon States
// Language. The one definition: the CDK stack synthesises it with the Lambda
// ARNs, the local server runs it with its handlers (lib/local/state-machine.ts),
// and the AWS test tier creates it on the endpoint.
//
// The state carries part references and small measurements, never text
// (Step Functions payloads are limited to 256 KB).

export interface AggregationResources {
  /** Invoked once per part: loads and checks it, answers its measurements. */
  part: string;
  /** Invoked once with every part's measurements: merges, stores the result, sets the terminal status. */
  finish: string;
}

export interface TaskState {
  Type: 'Task';
  Resource: string;
  Retry?: { ErrorEquals: string[]; IntervalSeconds: number; MaxAttempts: number; BackoffRate: number }[];
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
  ResultPath: string;
  Next?: string;
  End?: true;
}

export interface StateMachineDefinition {
  Comment: string;
  StartAt: string;
  States: Record<string, TaskState | MapState>;
}

/** Transient Lambda trouble (throttles, a crashed container) is retried; each task is idempotent, so a retry is safe. */
const retry: TaskState['Retry'] = [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 2, MaxAttempts: 4, BackoffRate: 2 }];

/** How many parts are measured at once: bounded so a 100-part document does not burst 100 Lambdas. */
export const AGGREGATION_MAP_CONCURRENCY = 8;

export function aggregationDefinition(resources: AggregationResources): StateMachineDefinition {
  return {
    Comment: 'docex: merge the parts of a document extracted in chunks into one result',
    StartAt: 'MeasureParts',
    States: {
      MeasureParts: {
        Type: 'Map',
        ItemsPath: '$.parts',
        ItemSelector: { 'job_id.$': '$.job_id', 'project_id.$': '$.project_id', 'part.$': '$$.Map.Item.Value' },
        MaxConcurrency: AGGREGATION_MAP_CONCURRENCY,
        ItemProcessor: {
          ProcessorConfig: { Mode: 'INLINE' },
          StartAt: 'AggregatePart',
          States: { AggregatePart: { Type: 'Task', Resource: resources.part, Retry: retry, End: true } },
        },
        ResultPath: '$.parts',
        Next: 'Finish',
      },
      Finish: { Type: 'Task', Resource: resources.finish, Retry: retry, End: true },
    },
  };
}
