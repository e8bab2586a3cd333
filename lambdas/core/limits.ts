// The numbers of SPEC.md section 8 and DESIGN.md section 3, in one place.

const MB = 1_000_000;
const HOUR = 3600_000;

export const limits = {
  /** Documents up to this size travel with the job message; larger ones are stored in S3. */
  inlineDocumentBytes: 1 * MB,
  /**
   * File bytes one direct multipart request may carry: a Lambda request is at
   * most 6 MB and API Gateway base64-encodes binary bodies (4/3 larger), so
   * about 4.5 MB of file bytes is all that fits.
   */
  directUploadBytes: 4.5 * MB,
  /** Whole request body, multipart framing included, before base64. */
  directRequestBytes: 4.5 * MB + 64 * 1024,
  /**
   * A Lambda response carries at most 6 MiB, measured as Lambda sends it: the
   * API Gateway proxy object as JSON, in which the body is a string, so every
   * quote, backslash and line break of the answer is escaped once more. A
   * result whose answer would not fit is linked (result_url), not inlined.
   */
  responseBytes: 6 * 1024 * 1024,
  /** Of responseBytes, what the proxy object around the body takes at most (status, headers). */
  responseEnvelopeBytes: 16 * 1024,
  /** The largest document the upload flow takes. */
  uploadBytes: 500 * MB,
  /** How long an upload URL works; a job whose document has not arrived by then fails. */
  uploadWindowSeconds: 900,
  /** Pages reserved per started megabyte when an upload is created, before the document can be counted. */
  uploadPagesPerMb: 1,
  maxFilesPerSubmission: 20,
  sandboxPages: 50,
  sandboxKeyLifetimeMs: 24 * HOUR,
  sandboxKeysPerIp: 10,
  sandboxWindowMs: 24 * HOUR,
  minPollIntervalMs: 1000,
  /** Documents over this size are split into chunks that workers extract in parallel (DESIGN.md section 4). */
  splitBytes: 10 * MB,
  /** Pages per chunk: small enough that one chunk finishes well inside the chunk worker's timeout. */
  chunkPages: 50,
} as const;
