/** The code of each verification failure, shared with the Go and Python SDKs. */
export type VerificationErrorCode =
  | "missing_header"
  | "invalid_signature"
  | "invalid_secret"
  | "timestamp_out_of_window"
  | "invalid_envelope";

/** Base class of every verification failure; `code` names it. */
export class WebhookVerificationError extends Error {
  readonly code: VerificationErrorCode;
  constructor(code: VerificationErrorCode, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

/** webhook-id, webhook-timestamp or webhook-signature is absent or empty. */
export class MissingHeaderError extends WebhookVerificationError {
  constructor(message: string) {
    super("missing_header", message);
  }
}

/** No v1 signature matches: tampered body, wrong secret, altered id or timestamp. */
export class InvalidSignatureError extends WebhookVerificationError {
  constructor(message: string) {
    super("invalid_signature", message);
  }
}

/** The secret is not a whsec_ secret of 24 to 64 base64-encoded bytes. */
export class InvalidSecretError extends WebhookVerificationError {
  constructor(message: string) {
    super("invalid_secret", message);
  }
}

/** The signature is valid but webhook-timestamp is too old or too far ahead. */
export class TimestampOutOfWindowError extends WebhookVerificationError {
  constructor(message: string) {
    super("timestamp_out_of_window", message);
  }
}

/** The signature is valid but the body is not a Ferry envelope for webhook-id. */
export class InvalidEnvelopeError extends WebhookVerificationError {
  constructor(message: string) {
    super("invalid_envelope", message);
  }
}
