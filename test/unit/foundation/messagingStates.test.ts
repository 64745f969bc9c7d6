/**
 * The states migration 035 lets `messaging_sends` and `messaging_jobs` hold (SQLite CHECKs) are
 * the states the code moves messages and jobs through: a state added to one and not the other
 * would fail a write at run time, in the middle of a job.
 */
import { expect, it } from 'vitest';
import { JOB_MESSAGE_STATES, MESSAGE_JOB_STATES } from '../../../src/shared/contract/messaging';
import { MESSAGING_JOB_STATES, MESSAGING_SEND_STATES } from '../../../src/main/store/migrations/035_personalised_messages';

it('the database holds exactly the message and job states the code uses', () => {
  expect([...MESSAGING_SEND_STATES].sort()).toEqual([...JOB_MESSAGE_STATES].sort());
  expect([...MESSAGING_JOB_STATES].sort()).toEqual([...MESSAGE_JOB_STATES].sort());
});
