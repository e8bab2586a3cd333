// Step Functions: its client, and the stack's aggregation state machine.

import { SFNClient } from '@aws-sdk/client-sfn';
import { env } from '../../lib/wiring-runtime.ts';
import { requiredEnv, withoutSdkLogger, type ClientOptions } from './aws-config.ts';
import { SfnAggregationStarter } from './sfn-aggregation.ts';

export const sfnClient = (options: ClientOptions = {}) => withoutSdkLogger(new SFNClient({ region: options.region, credentials: options.credentials }));

export const aggregation = () => new SfnAggregationStarter(sfnClient(), requiredEnv(env.aggregationStateMachineArn));
