import { appOperations, type ProfileView } from '../../shared/contract/app';
import { AppError } from '../../shared/appError';
import { nairaToKobo } from '../../shared/money';
import type { App } from '../app';
import { APP_VERSION } from '../version';
import type { HandlersOf } from './handlerTypes';

function profileViews(app: App): ProfileView[] {
  const activeId = app.connection.profileId;
  return app.profiles.list().map((p) => ({
    id: p.id,
    name: p.name,
    kind: p.kind,
    baseUrl: p.baseUrl,
    hasToken: p.kind === 'sandbox' || app.tokens.get(p.id) !== null,
    active: p.id === activeId,
  }));
}

export const appHandlers: HandlersOf<typeof appOperations> = {
  'app.info': (_input, app) => ({
    version: APP_VERSION,
    shell: app.shell,
    dataDir: app.dataDir,
    connection: { ...app.connection },
    tokenRefusal: app.tokens.refusal?.() ?? null,
  }),

  'account.balance': async (_input, app) => {
    const balance = await app.client().accountBalance();
    const ngn = balance.GlobalBalance.find((b) => b.Currency === 'NGN') ?? balance.GlobalBalance[0];
    if (!ngn) throw new AppError('no_wallet', 'The service reported no wallet for this organisation.', 'Ask the service to enable an NGN wallet.');
    return {
      accountName: balance.AccountName,
      balanceKobo: nairaToKobo(ngn.Balance),
      currency: ngn.Currency,
      accountNumber: ngn.AccountNumber,
      readAt: new Date().toISOString(),
    };
  },

  'profiles.list': (_input, app) => profileViews(app),

  'profiles.save': (input, app) => {
    // Refused before anything is saved, so a refused token never leaves a half-made profile.
    const refusal = input.token ? app.tokens.refusal?.() : null;
    if (refusal) throw AppError.fromShape(refusal);
    const profile = app.profiles.saveLive({ id: input.id, name: input.name, baseUrl: input.baseUrl });
    if (input.token) app.tokens.set(profile.id, input.token);
    const view = profileViews(app).find((p) => p.id === profile.id);
    if (!view) throw new AppError('profile_not_found', 'The profile was not saved.');
    return view;
  },

  'profiles.activate': async (input, app) => ({ ...(await app.switchProfile(input.id)) }),

  'profiles.delete': async (input, app) => {
    if (app.connection.profileId === input.id) await app.switchProfile('sandbox');
    app.profiles.delete(input.id);
    app.tokens.delete(input.id);
    return { deleted: true as const };
  },
};
