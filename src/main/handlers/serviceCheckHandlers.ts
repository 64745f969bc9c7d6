import { serviceCheckOperations } from '../../shared/contract/serviceCheck';
import { createConnectionDoctor } from '../doctor/connectionDoctor';
import type { HandlersOf } from './handlerTypes';

export const serviceCheckHandlers: HandlersOf<typeof serviceCheckOperations> = {
  'connection.doctor': (_input, app) => app.service(createConnectionDoctor).run(),
  'connection.answers': (_input, app) => {
    const { connection, client } = app.session();
    return { connection: { ...connection }, answers: client.answers.list() };
  },
};
