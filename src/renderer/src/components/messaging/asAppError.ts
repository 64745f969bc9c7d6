import { AppError } from '../../bridge';

export function asAppError(e: unknown): AppError {
  return e instanceof AppError ? e : new AppError('internal', e instanceof Error ? e.message : String(e));
}
