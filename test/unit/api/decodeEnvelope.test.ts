import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeEnvelope, gatewayKind, MalformedResponseError } from '../../../src/main/api/decodeEnvelope';
import { batchAcceptedSchema, electricityResultSchema, logPageSchema } from '../../../src/main/api/wireSchemas';

const env = (gatewayStatus: string, data: unknown, gatewayMessage = 'Successfully Processed') => ({
  gatewayStatus,
  gatewayMessage,
  requestReference: 'REQ1',
  data,
});

describe('decodeEnvelope', () => {
  it('reads a 200/00 success and parses data with the schema', () => {
    const r = decodeEnvelope(200, env('00', { token: '1234-5678', units: 12.5, receiptNo: 'R1', commission: 12 }), electricityResultSchema);
    expect(r).toEqual({ kind: 'success', data: { token: '1234-5678', units: 12.5, receiptNo: 'R1', commission: 12 }, reference: 'REQ1', httpStatus: 200 });
  });

  it('accepts the log endpoint spelling "Sucessfully Processed"', () => {
    const page = { TotalPages: 0, CurrentPage: 1, TotalRecords: 0, NextPage: '', PreviousPage: '', Items: [] };
    const r = decodeEnvelope(200, env('00', page, 'Sucessfully Processed'), logPageSchema);
    expect(r.kind).toBe('success');
  });

  it('falls back on the message when gatewayStatus is not one of the known codes', () => {
    expect(gatewayKind('', 'Sucessfully Processed')).toBe('success');
    expect(gatewayKind(undefined, 'Successfully Processed: batch')).toBe('success');
    expect(gatewayKind('', 'Unsucessfull')).toBe('failed');
    expect(gatewayKind('', 'Unsuccessful')).toBe('failed');
    expect(gatewayKind('', 'Transaction Pending')).toBe('pending');
    expect(gatewayKind('00', 'Unsucessfull')).toBe('success'); // the status wins
    expect(gatewayKind(' 01 ', '')).toBe('pending');
    expect(gatewayKind('77', 'whatever')).toBe('unknown');
  });

  it('treats 202 with 00 and {message, references} as accepted (airtime/data)', () => {
    const r = decodeEnvelope(202, env('00', { message: 'Batch accepted', references: ['A1', 'A2'] }), batchAcceptedSchema);
    expect(r).toEqual({ kind: 'success', data: { message: 'Batch accepted', references: ['A1', 'A2'] }, reference: 'REQ1', httpStatus: 202 });
  });

  it('treats 202 with 01 and {} as pending, ignoring data', () => {
    expect(decodeEnvelope(202, env('01', {}, 'Transaction Pending'), electricityResultSchema)).toEqual({ kind: 'pending', reference: 'REQ1', httpStatus: 202 });
  });

  it('treats 200 with 01 as pending', () => {
    expect(decodeEnvelope(200, env('01', {}), electricityResultSchema).kind).toBe('pending');
  });

  it('treats a 202 that does not confirm (00 with {}) as pending', () => {
    expect(decodeEnvelope(202, env('00', {}), electricityResultSchema).kind).toBe('pending');
  });

  it('reads 88 with the data string as the reason', () => {
    const r = decodeEnvelope(400, env('88', 'data bundle for the product code not found', 'Unsucessfull'), batchAcceptedSchema);
    expect(r).toEqual({ kind: 'failed', reason: 'data bundle for the product code not found', reference: 'REQ1', httpStatus: 400 });
  });

  it('reads 88 on a 200 answer as a failure too', () => {
    const r = decodeEnvelope(200, env('88', 'amount out of range for the network', 'Unsucessfull'), batchAcceptedSchema);
    expect(r).toMatchObject({ kind: 'failed', reason: 'amount out of range for the network', httpStatus: 200 });
  });

  it('finds a reason in an object, the message, or the status when data has none', () => {
    expect(decodeEnvelope(422, env('88', { reason: 'vending account not configured' }, 'Unsucessfull'), z.unknown())).toMatchObject({ reason: 'vending account not configured' });
    expect(decodeEnvelope(503, env('88', '', 'Service down'), z.unknown())).toMatchObject({ reason: 'Service down' });
    expect(decodeEnvelope(503, env('88', null, 'Unsucessfull'), z.unknown())).toMatchObject({ reason: 'the service answered HTTP 503' });
  });

  it('fails any 4xx/5xx whatever the envelope says, and survives a non-envelope error body', () => {
    expect(decodeEnvelope(500, env('00', { token: 'x' }), electricityResultSchema).kind).toBe('failed');
    expect(decodeEnvelope(502, '<html>Bad Gateway</html>', z.unknown())).toEqual({ kind: 'failed', reason: '<html>Bad Gateway</html>', reference: '', httpStatus: 502 });
    expect(decodeEnvelope(504, '', z.unknown())).toMatchObject({ kind: 'failed', reason: 'the service answered HTTP 504' });
  });

  it('throws MalformedResponseError for an unreadable 2xx', () => {
    expect(() => decodeEnvelope(200, '<html>', z.unknown())).toThrow(MalformedResponseError);
    expect(() => decodeEnvelope(200, env('77', {}, 'Something else'), z.unknown())).toThrow(/unknown gatewayStatus/);
    expect(() => decodeEnvelope(202, env('00', { message: 'x', references: 'nope' }), batchAcceptedSchema)).toThrow(/references/);
  });
});
