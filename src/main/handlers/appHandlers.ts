import { appOperations, type ProfileView } from '../../shared/contract/app';
import { CONNECTION_SWITCH_TOPICS } from '../../shared/contract/events';
import { AppError } from '../../shared/appError';
import { readWallet } from '../transactions/balanceSnapshots';
import { normalizeBaseUrl } from '../../shared/baseUrl';
import type { App } from '../appContext';
import { checkServiceAddress } from '../../shared/serviceAddress';
import { auditProfileChange } from '../team/teamAuditHooks';
import { APP_VERSION } from '../version';
import { createServiceClock } from '../api/serviceClock';
import { lagosToday } from '../../shared/localDates';
import type { HandlersOf } from './handlerTypes';

function profileViews(app: App): ProfileView[] {
  const activeId = app.connection.profileId;
  return app.profiles.list().map((p) => {
    const address = p.baseUrl ? checkServiceAddress(p.baseUrl) : null;
    return {
      id: p.id,
      name: p.name,
      kind: p.kind,
      baseUrl: p.baseUrl,
      hasToken: p.kind === 'sandbox' || app.tokens.get(p.id, p.baseUrl) !== null,
      active: p.id === activeId,
      warning: address === null ? null : address.ok ? address.warning : address.reason,
    };
  });
}

export const appHandlers: HandlersOf<typeof appOperations> = {
  'app.info': (_input, app) => ({
    version: APP_VERSION,
    shell: app.shell,
    dataDir: app.dataDir,
    connection: { ...app.connection },
    tokenRefusal: app.tokens.refusal?.() ?? null,
    today: lagosToday(app.service(createServiceClock).now()),
  }),

  'account.balance': async (_input, app) => {
    const { at: _at, local: _local, ...wallet } = await readWallet(app, 'balance', app.session());
    return { ...wallet, readAt: new Date().toISOString() };
  },

  'profiles.list': (_input, app) => profileViews(app),

  'profiles.save': async (input, app) => {
    // Refused before anything is saved, so a refused token never leaves a half-made profile.
    const refusal = input.token ? app.tokens.refusal?.() : null;
    if (refusal) throw AppError.fromShape(refusal);
    const before = input.id ? app.profiles.list().find((p) => p.id === input.id) : undefined;
    if (before && app.connection.profileId === before.id && normalizeBaseUrl(before.baseUrl ?? '') !== normalizeBaseUrl(input.baseUrl)) {
      throw new AppError(
        'profile_in_use',
        `"${before.name}" is the connection in use; its address cannot change under it.`,
        'Switch to another profile first (Settings → Connection profiles), then change the address.',
      );
    }
    const profile = app.profiles.saveLive({ id: input.id, name: input.name, baseUrl: input.baseUrl });
    // A token is bound to the address it was entered for: a new address clears it and asks again.
    let tokenCleared = false;
    if (input.token) {
      app.tokens.set(profile.id, input.token);
      app.profiles.bindToken(profile.id, normalizeBaseUrl(input.baseUrl));
    } else if (before && normalizeBaseUrl(before.baseUrl ?? '') !== normalizeBaseUrl(input.baseUrl)) {
      tokenCleared = app.tokens.get(profile.id, before.baseUrl) !== null || before.tokenAddress !== null;
      app.tokens.delete(profile.id);
      app.profiles.bindToken(profile.id, null);
    }
    const view = profileViews(app).find((p) => p.id === profile.id);
    if (!view) throw new AppError('profile_not_found', 'The profile was not saved.');
    await auditProfileChange(app, 'saved', view, { tokenGiven: input.token !== undefined, tokenCleared });
    return { ...view, tokenCleared };
  },

  'connection.check': async (_input, app) => {
    const started = Date.now();
    const checkedAt = new Date().toISOString();
    try {
      await readWallet(app, 'check', app.session());
      return { reachable: true as const, checkedAt, latencyMs: Date.now() - started };
    } catch (error) {
      const e = error instanceof AppError ? error : null;
      return {
        reachable: false as const,
        checkedAt,
        code: e?.code ?? 'unreachable',
        message: e?.message ?? (error instanceof Error ? error.message : String(error)),
        hint: e?.hint ?? null,
      };
    }
  },

  'profiles.activate': async (input, app) => {
    const target = app.profiles.get(input.id);
    if (target.kind === 'live' && target.id !== app.connection.profileId && input.confirmLive !== true) {
      throw new AppError(
        'live_confirmation_needed',
        `"${target.name}" is a LIVE connection: purchases made there spend real money from ${target.baseUrl ?? 'the live service'}.`,
        'Confirm that you want to switch to it (the window asks; the CLI takes --yes).',
      );
    }
    const connection = { ...(await app.switchProfile(input.id)) };
    await auditProfileChange(app, 'activated', target);
    return connection;
  },

  'profiles.delete': async (input, app) => {
    if (app.connection.profileId === input.id) {
      await app.switchProfile('sandbox');
      // The one change here that depends on the input, so the contract cannot declare it.
      app.invalidate(CONNECTION_SWITCH_TOPICS, 'the profile in use was deleted');
    }
    const deleted = app.profiles.list().find((p) => p.id === input.id);
    app.profiles.delete(input.id);
    if (deleted) await auditProfileChange(app, 'deleted', deleted);
    app.tokens.delete(input.id);
    return { deleted: true as const };
  },
};
