import type { OperationInput, OperationName, OperationOutput } from '../shared/contract';
import type { CallOptions } from '../shared/contract/define';
import { AppError } from '../shared/appError';
import type { App } from '../main/app';
import { dispatch } from '../main/dispatch';

/** The CLI calls the same contract as the UI; a failure becomes an AppError to report. */
export async function callOrThrow<N extends OperationName>(app: App, name: N, input: OperationInput<N>, options: CallOptions = {}): Promise<OperationOutput<N>> {
  const result = await dispatch(app, name, input, options);
  if (!result.ok) throw AppError.fromShape(result.error);
  return result.value as OperationOutput<N>;
}
