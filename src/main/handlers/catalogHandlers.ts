import type { catalogOperations } from '../../shared/contract/catalog';
import { getCatalogs } from '../catalog/catalogCache';
import type { HandlersOf } from './handlerTypes';

export const catalogHandlers: HandlersOf<typeof catalogOperations> = {
  'catalog.get': (input, app) => getCatalogs(app, { kinds: input.kinds }),
  'catalog.refresh': (_input, app) => getCatalogs(app, { refresh: true }),
};
