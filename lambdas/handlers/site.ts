import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { header } from '../core/http.ts';
import { openApiDocument } from '../core/openapi.ts';
import { contentSecurityPolicy, dashboardPage } from '../dashboard/page.ts';

/** Where this deployment answers: scheme and host as the client sees them, plus any stage prefix (/prod) before the route. */
function serverUrl(event: APIGatewayProxyEvent): string {
  const proto = header(event, 'x-forwarded-proto') ?? 'http';
  const host = header(event, 'host') ?? 'localhost';
  const fullPath = event.requestContext.path ?? event.path;
  const prefix = fullPath.endsWith(event.path) ? fullPath.slice(0, fullPath.length - event.path.length) : '';
  return `${proto}://${host}${prefix}`;
}

/** The public, unauthenticated documents: GET /dashboard (the page) and GET /v1/openapi.json. */
export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
  if (event.resource === '/v1/openapi.json') {
    return {
      statusCode: 200,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'Access-Control-Allow-Origin': '*' },
      body: JSON.stringify(openApiDocument(serverUrl(event))),
    };
  }
  return {
    statusCode: 200,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-cache',
    },
    body: dashboardPage,
  };
};

export const makeHandler = () => handler;
