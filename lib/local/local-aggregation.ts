import type { AggregationInput, AggregationStarter } from '../../lambdas/core/ports.ts';
import type { LocalStateMachine } from './state-machine.ts';

/** The AggregationStarter port over the local state machine runner: executions named after their job, as in AWS. */
export class LocalAggregationStarter implements AggregationStarter {
  constructor(private readonly machine: LocalStateMachine) {}

  start(input: AggregationInput): Promise<void> {
    return this.machine.start(input.job_id, input);
  }

  stop(jobId: string): Promise<void> {
    return this.machine.stop(jobId);
  }
}
