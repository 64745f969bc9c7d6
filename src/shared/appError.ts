import type { AppErrorShape } from './contract/define';
import type { ErrorCode } from './errorCodes';

/**
 * An error whose message a user can act on. `code` is stable for programs (the CLI's exit code,
 * tests); `message` says what happened; `hint` says what to do. Never carries a token.
 */
export class AppError extends Error implements AppErrorShape {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, hint?: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.hint = hint;
    this.details = details;
  }

  toShape(): AppErrorShape {
    return { code: this.code, message: this.message, ...(this.hint ? { hint: this.hint } : {}), ...(this.details !== undefined ? { details: this.details } : {}) };
  }

  static fromShape(shape: AppErrorShape): AppError {
    return new AppError(shape.code, shape.message, shape.hint, shape.details);
  }
}

/** Any thrown value as an AppError, so every error the user sees has a message (and a hint when known). */
export function asAppError(e: unknown): AppError {
  return e instanceof AppError ? e : new AppError('internal', e instanceof Error ? e.message : String(e));
}
