/**
 * `vendesk recipients import FILE` (the recipients list: phone, meter or smartcard → name and cost
 * centre), `vendesk cost-centre set REFERENCE NAME` (a purchase's cost centre changed, recorded) and
 * `vendesk cost-centre history REFERENCE`. See docs/cost-centres.md.
 */
import path from 'node:path';
import { z } from 'zod';
import { formatDateTime } from '../../shared/localDates';
import type { CostCentreChangeView } from '../../shared/contract/costCentres';
import { command, requirePositional } from '../cliCommand';
import { lines, tt } from '../terminal';

const changeShape = z.strictObject({
  reference: z.string().nullable(),
  from: z.string().nullable().describe('null: none was recorded'),
  to: z.string().nullable(),
  actor: z.string(),
  actorKind: z.enum(['desktop', 'team']),
  changedAt: z.string().describe('UTC, on the service clock'),
});

const changeJson = (c: CostCentreChangeView): z.infer<typeof changeShape> => ({
  reference: c.reference,
  from: c.from,
  to: c.to,
  actor: c.actor,
  actorKind: c.actorKind,
  changedAt: c.changedAt,
});

const shown = (centre: string | null) => centre ?? '(none)';

export const recipientsImportCommand = command({
  path: ['recipients', 'import'],
  summary: 'Import the recipients list (phone, meter or smartcard → name and cost centre) from a spreadsheet',
  usage: 'vendesk recipients import FILE [--json]',
  options: [],
  output: z.strictObject({ file: z.string(), rows: z.number(), phones: z.number(), meters: z.number(), smartcards: z.number(), replaced: z.number() }),
  async run(ctx) {
    const file = requirePositional(ctx.args, 0, 'Name the spreadsheet: vendesk recipients import FILE');
    const r = await ctx.call('costCentres.importRecipients', { file: { path: path.resolve(file) } });
    return {
      json: r,
      text: tt`Imported ${r.rows} row(s) of ${r.file}: ${r.phones} phone number(s), ${r.meters} meter(s), ${r.smartcards} smartcard(s) (${r.replaced} replaced a rule already in the list).`,
    };
  },
});

export const costCentreSetCommand = command({
  path: ['cost-centre', 'set'],
  summary: "Change a vendesk purchase's cost centre (by its transaction id); the change is recorded",
  usage: 'vendesk cost-centre set REFERENCE NAME [--json]   (NAME "" removes it)',
  options: [],
  output: changeShape,
  async run(ctx) {
    const reference = requirePositional(ctx.args, 0, 'Name the purchase: vendesk cost-centre set REFERENCE NAME');
    const name = requirePositional(ctx.args, 1, 'Name the cost centre: vendesk cost-centre set REFERENCE NAME');
    const c = await ctx.call('costCentres.change', { reference, costCentre: name });
    return {
      json: changeJson(c),
      text:
        c.from === c.to
          ? tt`${reference} is already charged to ${shown(c.to)}; nothing changed.`
          : tt`${reference}: cost centre ${shown(c.from)} → ${shown(c.to)} (by ${c.actor}, recorded).`,
    };
  },
});

export const costCentreHistoryCommand = command({
  path: ['cost-centre', 'history'],
  summary: "The recorded changes of a purchase's cost centre, oldest first",
  usage: 'vendesk cost-centre history REFERENCE [--json]',
  options: [],
  output: z.array(changeShape),
  async run(ctx) {
    const reference = requirePositional(ctx.args, 0, 'Name the purchase: vendesk cost-centre history REFERENCE');
    const changes = await ctx.call('costCentres.history', { reference });
    return {
      json: changes.map(changeJson),
      text: changes.length
        ? lines(changes.map((c) => tt`${formatDateTime(c.changedAt)}  ${c.actor}  ${shown(c.from)} → ${shown(c.to)}`))
        : tt`No change of ${reference}'s cost centre is recorded.`,
    };
  },
});

export const COST_CENTRE_COMMANDS = [recipientsImportCommand, costCentreSetCommand, costCentreHistoryCommand];
