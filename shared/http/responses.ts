import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

export const noContent = (): HttpResponse => ({ statusCode: 204, headers: {} });
