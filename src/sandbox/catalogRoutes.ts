/** Catalog endpoints: `/AirtimeList`, `/DataList`, `/CableTVList`, `/ElectricityList`. */
import { parseNetwork } from '../shared/phone';
import { SUCCESS_MESSAGE } from '../shared/wire';
import { AIRTIME_CATALOG, ELECTRICITY_CATALOG, parseCableProvider } from './catalogs';
import { bouquetsOf, dataPlansOf } from './catalogChanges';
import type { Ctx } from './context';
import { HttpError, ok, type Reply } from './httpErrors';

export function airtimeList(ctx: Ctx): Reply {
  return ok(ctx.ref, AIRTIME_CATALOG, SUCCESS_MESSAGE);
}

export function dataList(ctx: Ctx): Reply {
  const raw = ctx.url.searchParams.get('network')?.trim();
  if (!raw) return ok(ctx.ref, dataPlansOf(ctx.org), SUCCESS_MESSAGE);
  const network = parseNetwork(raw);
  if (!network) throw new HttpError(400, `unrecognised network "${raw}"; use GLOBACOM, AIRTEL, MTN or 9MOBILE`);
  return ok(
    ctx.ref,
    dataPlansOf(ctx.org).filter((p) => p.network === network),
    SUCCESS_MESSAGE,
  );
}

/** The provider filter's parameter is `provider` (the spec leaves the name open). */
export function cableList(ctx: Ctx): Reply {
  const raw = ctx.url.searchParams.get('provider')?.trim();
  if (!raw) return ok(ctx.ref, bouquetsOf(ctx.org), SUCCESS_MESSAGE);
  const provider = parseCableProvider(raw);
  if (!provider) throw new HttpError(400, `provider "${raw}" not found; use DSTV, GOTV, STARTIMES or SHOWMAX`);
  return ok(
    ctx.ref,
    bouquetsOf(ctx.org).filter((b) => b.network === provider),
    SUCCESS_MESSAGE,
  );
}

export function electricityList(ctx: Ctx): Reply {
  return ok(ctx.ref, ELECTRICITY_CATALOG, SUCCESS_MESSAGE);
}
