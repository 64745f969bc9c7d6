import type { OperationTable, OutputOf, ParsedInputOf } from '../../shared/contract/define';
import type { App } from '../appContext';

/** What every handler gets besides its input: the call's signal, aborted when the caller cancels. */
export interface CallContext {
  signal: AbortSignal;
}

/** The handlers of one area's operations: each gets its parsed input, the app and the call's context. */
export type HandlersOf<T extends OperationTable> = {
  [N in keyof T]: (input: ParsedInputOf<T[N]>, app: App, call: CallContext) => Promise<OutputOf<T[N]>> | OutputOf<T[N]>;
};
