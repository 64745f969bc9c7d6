/**
 * What the job runner's loop (`jobRunner.ts`) shares with the strategy that sends a job's items —
 * airtime and data in batches (`airtimeDataSending.ts`), electricity and cable one purchase at a
 * time (`vendingSending.ts`). The timing both follow is in `runTiming.ts`.
 */
import type { VendingClient } from '../api/vendingClient';
import type { BulkSettings } from './bulkSettings';
import type { ItemMoves } from './itemMoves';
import type { JobReads } from './jobReads';
import type { ItemRow, JobRow } from './jobRows';
import type { RunnerTiming } from './runTiming';

export type PurchaseClient = Pick<VendingClient, 'purchaseAirtime' | 'purchaseData' | 'logEntries' | 'logPage' | 'requery'>;

export interface RunContext {
  /** What the run reads of its job's items. */
  reads: JobReads;
  /** Its items' moves. */
  moves: ItemMoves;
  job: JobRow;
  /** The client of the job's connection, pinned for the run. */
  client: PurchaseClient;
  /** The service's clock (epoch ms): items' `sent_ms`, waits and the 2 min 1 s requery rule are on it. */
  now: () => number;
  /** The run's waits and backoffs. */
  timing: RunnerTiming;
  /** What the send policy (`sendPolicy.ts`: retries, holds, pauses) keeps of this run; its `pauseReason` stops the sending. */
  sending: SendingState;
  /** The bulk settings as last read (the loop reads them again before every batch). */
  settings: () => BulkSettings;
  /** True once the user cancelled the job: settling stops at the next item. */
  cancelled: () => boolean;
  /** The service accepted an item: the wait for outcomes starts again. */
  accepted: () => void;
}

/** The state of a run's sending that the send policy keeps. */
export interface SendingState {
  /** Why the job stops sending now, or null. */
  pauseReason: string | null;
  /** Answers in a row that vending is unavailable. */
  unavailableRounds: number;
  /** A single purchase refused before anything of it was written: why (its buyer's error), which the purchase answers with. */
  refused: unknown;
}

/** How a job of one kind sends its items and learns what became of them. */
export interface SendStrategy {
  /** One item per request (else a request carries up to the batch size). */
  readonly oneItemPerRequest: boolean;
  /**
   * Sends the items and records the answer of each. Each is committed `sending` before its request
   * leaves: by the runner, or, when `marksItsOwnSending`, in the strategy's own write of it.
   */
  send(batch: ItemRow[]): Promise<void>;
  /**
   * The strategy commits each item `sending` in the write that records its request before it
   * leaves (an electricity or cable item, in its purchase's write), so the runner need not commit
   * it first. A team's claim, which takes items already `sending`, still has the runner mark them.
   */
  readonly marksItsOwnSending: boolean;
  /** Learns the outcome of accepted items. */
  pollOutcomes(): Promise<void>;
  /** Settles the uncertain items that can be settled now. */
  settleUncertain(): Promise<void>;
  /** Whether an uncertain item waits the safe delay after sending before the log can settle it. */
  readonly waitsSafeDelay: boolean;
  /**
   * Whether the run waits, before it ends, for its uncertain items to be settled from the log (a
   * single electricity or cable purchase answers at once: its purchase is settled afterwards by
   * the requery loop and the log, and its item follows it).
   */
  readonly waitsForUncertain: boolean;
}
