import type { OperationTable, OutputOf, ParsedInputOf } from '../../shared/contract/define';
import type { App } from '../app';

/** The handlers of one area's operations: each gets its parsed input and the app. */
export type HandlersOf<T extends OperationTable> = {
  [N in keyof T]: (input: ParsedInputOf<T[N]>, app: App) => Promise<OutputOf<T[N]>> | OutputOf<T[N]>;
};
