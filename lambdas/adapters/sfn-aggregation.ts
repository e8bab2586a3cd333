import { ExecutionAlreadyExists, ExecutionDoesNotExist, StartExecutionCommand, StopExecutionCommand, type SFNClient } from '@aws-sdk/client-sfn';
import type { AggregationInput, AggregationStarter } from '../core/ports.ts';

const isNamed = (error: unknown, name: string) => (error as { name?: string } | null)?.name === name;

/**
 * Step Functions executions named after their job: starting one twice is
 * refused by AWS (ExecutionAlreadyExists), which is exactly the once-only
 * start the pipeline needs, and the job id alone finds the execution to stop.
 */
export class SfnAggregationStarter implements AggregationStarter {
  constructor(
    private readonly sfn: SFNClient,
    private readonly stateMachineArn: string,
  ) {}

  async start(input: AggregationInput): Promise<void> {
    try {
      await this.sfn.send(new StartExecutionCommand({ stateMachineArn: this.stateMachineArn, name: input.job_id, input: JSON.stringify(input) }));
    } catch (error) {
      if (error instanceof ExecutionAlreadyExists || isNamed(error, 'ExecutionAlreadyExists')) return;
      throw error;
    }
  }

  async stop(jobId: string): Promise<void> {
    try {
      await this.sfn.send(new StopExecutionCommand({ executionArn: executionArn(this.stateMachineArn, jobId), cause: 'The job was cancelled.' }));
    } catch (error) {
      if (error instanceof ExecutionDoesNotExist || isNamed(error, 'ExecutionDoesNotExist')) return;
      throw error;
    }
  }
}

/** arn:aws:states:<region>:<account>:stateMachine:<machine> -> ...:execution:<machine>:<name>. */
export function executionArn(stateMachineArn: string, name: string): string {
  const parts = stateMachineArn.split(':');
  if (parts[5] !== 'stateMachine' || parts.length < 7) throw new Error(`"${stateMachineArn}" is not a state machine ARN`);
  return [...parts.slice(0, 5), 'execution', parts[6], name].join(':');
}
