import { standingOperations } from '../../shared/contract/standing';
import { createStandingService } from '../standing/standingService';
import type { HandlersOf } from './handlerTypes';

export const standingHandlers: HandlersOf<typeof standingOperations> = {
  'standing.prepare': (input, app) => app.service(createStandingService).prepare(input),
  'standing.confirm': (input, app) => app.service(createStandingService).confirm(input.orderId, input.typedTotal),
  'standing.discard': (input, app) => app.service(createStandingService).discard(input.orderId),
  'standing.list': (input, app) => app.service(createStandingService).list(input.states),
  'standing.show': (input, app) => app.service(createStandingService).show(input.orderId),
  'standing.pause': (input, app) => app.service(createStandingService).pause(input.orderId),
  'standing.resume': (input, app) => app.service(createStandingService).resume(input.orderId),
  'standing.end': (input, app) => app.service(createStandingService).end(input.orderId),
  'standing.runDue': (input, app) => app.service(createStandingService).runDue(input),
  'standing.runOccurrence': (input, app) => app.service(createStandingService).runOccurrence(input.orderId, input.occurrence, input.wait),
  'standing.skip': (input, app) => app.service(createStandingService).skip(input.orderId, input.occurrence),
  'standing.approve': (input, app) =>
    app.service(createStandingService).approve(input.orderId, { ceilingKobo: input.ceilingKobo, runs: input.runs, until: input.until, note: input.note ?? '' }),
};
