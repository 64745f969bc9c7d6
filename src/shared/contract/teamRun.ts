/**
 * Running an approved team job on another team desktop (issue 18): the desktop makes a local job
 * from the items the preparer stored in the team database and runs it, claiming each row first.
 */
import { z } from 'zod';
import type { BulkJobView } from './bulk';
import { op } from './define';

export const teamRunOperations = {
  'bulk.adopt': op(
    z.object({ teamJobId: z.string().uuid('Not a team job id'), wait: z.boolean().default(false) }),
    'Runs an approved team job on this desktop (same service and organisation as where it was prepared); rows another desktop sent are never sent again',
    { invalidates: ['jobs'] },
  ).returns<BulkJobView>(),
} as const;
