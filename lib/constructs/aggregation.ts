import { ArnFormat, Stack, Token, Validations } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { DefinitionBody, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { aggregationDefinition } from '../../lambdas/core/aggregation-definition.ts';
import { env, functions as wiredFunctions, type FunctionName } from '../wiring.ts';

export interface AggregationProps {
  functions: Record<FunctionName, LambdaFunction>;
}

/**
 * The Step Functions state machine that merges a large document's parts
 * (DESIGN.md section 4), from the one definition the local server also runs.
 * It may invoke its three task functions and nothing else; the functions whose
 * wiring says `aggregation: 'start' | 'stop'` may start, or stop, its executions only.
 */
export class Aggregation extends Construct {
  readonly stateMachine: StateMachine;

  constructor(scope: Construct, id: string, { functions }: AggregationProps) {
    super(scope, id);
    const task = (kind: 'part' | 'finish' | 'fail') => {
      const entry = Object.entries(wiredFunctions).find(([, spec]) => spec.uses.aggregationTask === kind);
      if (!entry) throw new Error(`lib/wiring.ts names no function with aggregationTask '${kind}'`);
      return functions[entry[0] as FunctionName];
    };
    const part = task('part');
    const finish = task('finish');
    const fail = task('fail');
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('states.amazonaws.com'),
      description: 'docex aggregation: invokes its three task functions, nothing else',
    });
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [part.functionArn, finish.functionArn, fail.functionArn] }),
    );
    const definition = aggregationDefinition({ part: part.functionArn, finish: finish.functionArn, fail: fail.functionArn });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromString(Stack.of(this).toJsonString(definition)),
      role,
    });
    Validations.of(this.stateMachine).acknowledge(
      {
        id: 'AwsSolutions-SF1',
        reason: 'The state carries only job ids and part references; both task functions log every step to their own log groups, and the execution history keeps each state\'s input and output.',
      },
      {
        id: 'AwsSolutions-SF2',
        reason: 'Three Lambda tasks in a fixed order: X-Ray would need xray:* on every resource for the role, for no question the execution history does not already answer.',
      },
    );

    const executions = Stack.of(this).formatArn({
      service: 'states',
      resource: 'execution',
      resourceName: `${this.stateMachine.stateMachineName}:*`,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    for (const [name, spec] of Object.entries(wiredFunctions) as [FunctionName, (typeof wiredFunctions)[FunctionName]][]) {
      const use = spec.uses.aggregation;
      if (!use) continue;
      const fn = functions[name];
      fn.addEnvironment(env.aggregationStateMachineArn, this.stateMachine.stateMachineArn);
      if (use === 'start') {
        fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StartExecution'], resources: [this.stateMachine.stateMachineArn] }));
      } else {
        fn.addToRolePolicy(new PolicyStatement({ actions: ['states:StopExecution'], resources: [executions] }));
        Validations.of(fn.role!).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${nagArnPrefix(Stack.of(this))}:execution:<${Stack.of(this).getLogicalId(this.stateMachine.node.defaultChild as never)}.Name>:*]`,
          reason: 'Executions are named after job ids made at run time; the grant covers this state machine\'s executions only, to stop a cancelled job\'s aggregation.',
        });
      }
    }
  }
}

/**
 * The start of a states ARN as cdk-nag writes it in a finding: the stack's
 * partition, region and account where they are known (a deployment with an
 * env), their pseudo-parameter names where they are not.
 */
function nagArnPrefix(stack: Stack): string {
  const known = (value: string, name: string) => (Token.isUnresolved(value) ? `<AWS::${name}>` : value);
  return `arn:${known(stack.partition, 'Partition')}:states:${known(stack.region, 'Region')}:${known(stack.account, 'AccountId')}`;
}
