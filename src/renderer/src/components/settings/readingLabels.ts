import type { EndpointCheckState } from '../../../../shared/contract/serviceCheck';

/** How vendesk read an answer of the service, as a badge: the connection check and the kept answers share it. */
export const READING: Record<EndpointCheckState, { label: string; color: string }> = {
  read: { label: 'Read', color: 'teal' },
  read_with_gaps: { label: 'Read, with gaps', color: 'yellow' },
  unreadable: { label: 'Not readable', color: 'red' },
  refused: { label: 'Refused', color: 'red' },
  no_answer: { label: 'No answer', color: 'red' },
  skipped: { label: 'Skipped', color: 'gray' },
};
