import busboy from 'busboy';
import { ApiError, invalidRequest } from './errors.ts';
import { parseExtractionConfig } from './extraction-config.ts';
import type { ExtractionConfig } from '../extract/engine/types.ts';
import type { WebhookTarget } from './job.ts';
import { limits } from './limits.ts';
import { parseWebhookField, sealInlineWebhook, type InlineWebhookRequest, type WebhookIntake } from './webhook-target.ts';

export interface Upload {
  filename: string;
  contentType: string | null;
  bytes: Uint8Array;
}

export interface Submission {
  files: Upload[];
  webhook: WebhookTarget | null;
  /** The `config` field, validated; null when absent. */
  config: ExtractionConfig | null;
}

export const tooLarge = () =>
  new ApiError(
    413,
    'payload_too_large',
    `A direct upload carries at most ${limits.directUploadBytes / 1e6} MB of file bytes. ` +
      'Send larger files with the upload flow: POST /v1/uploads returns a presigned upload_url to PUT the file to.',
  );

const FORM_HELP = 'Send multipart/form-data with one or more "file" parts and optional "webhook" and "config" fields.';

/**
 * Reads a POST /v1/extract body. Every client mistake becomes a 4xx that says
 * what to fix. An inline webhook's host is checked and its secret sealed for
 * `projectId` here, so nothing downstream ever holds the plaintext.
 */
export async function parseSubmission(
  body: Buffer,
  contentType: string | undefined,
  intake: WebhookIntake,
  projectId: string,
): Promise<Submission> {
  const { files, webhook, config } = await readForm(body, contentType, intake);
  return { files, webhook: webhook ? await sealInlineWebhook(webhook, intake, projectId) : null, config };
}

function readForm(
  body: Buffer,
  contentType: string | undefined,
  policy: WebhookIntake,
): Promise<{ files: Upload[]; webhook: InlineWebhookRequest | null; config: ExtractionConfig | null }> {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType)) {
    return Promise.reject(new ApiError(415, 'unsupported_media_type', `Content-Type must be multipart/form-data. ${FORM_HELP}`));
  }
  if (!/boundary=/i.test(contentType)) {
    return Promise.reject(invalidRequest(`The multipart Content-Type has no boundary. ${FORM_HELP}`));
  }
  return new Promise((resolve, reject) => {
    const files: Upload[] = [];
    let webhook: InlineWebhookRequest | null = null;
    let config: ExtractionConfig | null = null;
    let total = 0;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      reject(error);
    };

    const parser = busboy({
      headers: { 'content-type': contentType },
      // RFC 7578: a filename is UTF-8 (browsers, curl and fetch send it so); busboy's default is Latin-1.
      // An RFC 5987 filename*=UTF-8''… parameter is decoded by its own charset and wins over filename.
      defParamCharset: 'utf8',
      limits: { files: limits.maxFilesPerSubmission + 1, fields: 10, fieldSize: 64 * 1024, parts: 64 },
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limits.directUploadBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      stream.on('error', (error: Error) => fail(invalidRequest(`The multipart body could not be read (${error.message}). ${FORM_HELP}`)));
      stream.on('end', () => {
        if (failed) return;
        if (field !== 'file') return fail(invalidRequest(`Unexpected file part "${field}". ${FORM_HELP}`));
        if (!info.filename) return fail(invalidRequest(`A file part has no filename. ${FORM_HELP}`));
        if (files.length >= limits.maxFilesPerSubmission) {
          return fail(invalidRequest(`At most ${limits.maxFilesPerSubmission} files per submission; split the batch.`));
        }
        const declared = info.mimeType && info.mimeType !== 'application/octet-stream' ? info.mimeType : null;
        files.push({ filename: info.filename, contentType: declared, bytes: Buffer.concat(chunks) });
      });
    });
    parser.on('field', (name, value, info) => {
      if (failed) return;
      if (info.valueTruncated) return fail(invalidRequest(`Form field "${name}" is longer than 64 KB.`));
      if (name === 'config') {
        try {
          config = parseExtractionConfig(value);
        } catch (error) {
          fail(error);
        }
        return;
      }
      if (name !== 'webhook') return fail(invalidRequest(`Unknown form field "${name}". ${FORM_HELP}`));
      try {
        webhook = parseWebhookField(value, policy);
      } catch (error) {
        fail(error);
      }
    });
    parser.on('filesLimit', () => fail(invalidRequest(`At most ${limits.maxFilesPerSubmission} files per submission; split the batch.`)));
    parser.on('error', (error: Error) => fail(invalidRequest(`The multipart body could not be read (${error.message}). ${FORM_HELP}`)));
    parser.on('close', () => {
      if (failed) return;
      if (files.length === 0) return fail(invalidRequest(`No file part found. ${FORM_HELP}`));
      resolve({ files, webhook, config });
    });
    parser.end(body);
  });
}
