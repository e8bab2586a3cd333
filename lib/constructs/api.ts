import { Validations } from 'aws-cdk-lib';
import { LambdaIntegration, ResponseType, RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { ErrorCode } from '../../lambdas/core/errors.ts';
import { routes, type FunctionName } from '../wiring.ts';

export interface ApiProps {
  functions: Record<FunctionName, IFunction>;
}

const body = (error: ErrorCode, message: string) => JSON.stringify({ error, message });

// Answers API Gateway gives before (or instead of) reaching a handler, in the
// same { error, message } shape the handlers use.
const gatewayResponses: { type: ResponseType; statusCode?: string; template: string; headers?: Record<string, string> }[] = [
  {
    type: ResponseType.REQUEST_TOO_LARGE,
    statusCode: '413',
    template: body('payload_too_large', 'Files over 4.5 MB cannot be sent inline: create an upload with POST /v1/uploads and PUT the file to the returned URL.'),
  },
  {
    type: ResponseType.THROTTLED,
    statusCode: '429',
    template: body('rate_limited', 'Too many requests; wait a second and retry.'),
    headers: { 'Retry-After': "'1'" },
  },
  // An unknown path or method: API Gateway calls it a missing token (403), callers mean 404.
  {
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    statusCode: '404',
    template: body('not_found', 'No such route; the API lives under /v1 (see the API reference).'),
  },
  { type: ResponseType.DEFAULT_4XX, template: '{"error":"invalid_request","message":$context.error.messageString}' },
  { type: ResponseType.DEFAULT_5XX, template: body('internal_error', 'The service failed to answer; retry in a moment.') },
];

/**
 * The REST front door. Auth is the handlers' job (Bearer keys live in our table),
 * so methods carry no API Gateway authorizer.
 */
export class Api extends Construct {
  readonly restApi: RestApi;

  constructor(scope: Construct, id: string, { functions }: ApiProps) {
    super(scope, id);
    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: 'docex',
      // Without these API Gateway would pass uploads as UTF-8 text and corrupt the bytes.
      // image/*: page images (GET /v1/jobs/{id}/pages/{n}) go out as bytes when the request accepts them (Accept: image/png).
      binaryMediaTypes: ['multipart/form-data', 'application/octet-stream', 'image/*'],
      cloudWatchRole: false,
      deployOptions: { stageName: 'prod', throttlingRateLimit: 50, throttlingBurstLimit: 100 },
    });
    // RestApi always adds an 'Endpoint' output; the stack's ApiUrl is the one to read.
    this.restApi.node.tryRemoveChild('Endpoint');

    for (const route of routes) {
      const method = this.restApi.root.resourceForPath(route.path).addMethod(
        route.method,
        // No permission for the console's test-invoke: one resource-policy entry per route, not two.
        new LambdaIntegration(functions[route.fn], { allowTestInvoke: false }),
      );
      const reason = route.auth
        ? 'Callers present docex API keys (Bearer kz_/sk_sandbox_), checked by the handler against the key hashes in the table; that is the API\'s contract (SPEC.md section 5), not IAM or Cognito.'
        : 'POST /v1/sandbox/key is anonymous by specification: it issues the trial keys, limited per source IP by the handler.';
      for (const id of ['AwsSolutions-APIG4', 'AwsSolutions-COG4']) Validations.of(method).acknowledge({ id, reason });
    }

    const logging =
      'Execution and access logs need the account-wide API Gateway CloudWatch role (AWS::ApiGateway::Account), a singleton this stack must not take over in the user\'s account. The functions log to their own groups, and the API\'s default metrics (Count, 4XXError, 5XXError, Latency) remain.';
    for (const [id, reason] of [
      ['AwsSolutions-APIG1', logging],
      ['AwsSolutions-APIG6', logging],
      ['AwsSolutions-APIG2', 'Bodies are multipart uploads that only the handlers can validate; they answer invalid input with the API\'s { error, message } 400s.'],
      ['AwsSolutions-APIG3', 'A WAF web ACL costs a monthly fee per ACL; the stage is throttled and the handlers rate-limit per key and IP. Attach an ACL to the stage if you need one.'],
    ] as const) {
      Validations.of(this.restApi).acknowledge({ id, reason });
    }

    for (const r of gatewayResponses) {
      this.restApi.addGatewayResponse(`Gateway${r.type.responseType}`, {
        type: r.type,
        statusCode: r.statusCode,
        responseHeaders: r.headers,
        templates: { 'application/json': r.template },
      });
    }
  }
}
