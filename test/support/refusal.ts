/** The AppError a call was refused with; fails the test when the call succeeds or throws something else. */
import { AppError } from '../../src/shared/appError';

export async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal, but it succeeded');
}
