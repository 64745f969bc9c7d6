import { describe, expect, it } from 'vitest';
import { ImportError, assertMappingComplete, detectMapping, fieldsFor, headersKey, missingFields, requiredFields } from '../../../src/main/imports';

describe('column mapping from header names', () => {
  it.each([
    [['Phone', 'Amount'], 0, 1],
    [['phone number', 'VALUE'], 0, 1],
    [['MSISDN', 'Amount (₦)'], 0, 1],
    [['Mobile No.', 'amount_ngn'], 0, 1],
    [['S/N', 'Full Name', 'Number', 'Network', 'Amount'], 2, 4],
    [['Recipient', 'Amount in Naira'], 0, 1],
    [['  PHONE_NUMBER ', 'Top-up amount'], 0, 1],
    [['Phone Number (e.g. 08031234567)', 'Amount'], 0, 1],
  ])('%j → phone column %i, amount column %i', (headers, phone, amount) => {
    const mapping = detectMapping(headers, 'airtime');
    expect(mapping.phone).toBe(phone);
    expect(mapping.amount).toBe(amount);
  });

  it('maps every field of a bulk airtime sheet', () => {
    const mapping = detectMapping(['Name', 'Phone', 'Network', 'Amount', 'Product Code', 'Reference'], 'airtime');
    expect(mapping).toMatchObject({ name: 0, phone: 1, network: 2, amount: 3, productCode: 4, reference: 5 });
  });

  it('maps data plan code spellings', () => {
    expect(detectMapping(['Phone', 'Plan'], 'data').productCode).toBe(1);
    expect(detectMapping(['Phone', 'Bundle'], 'data').productCode).toBe(1);
    expect(detectMapping(['Phone', 'Product Code'], 'data').productCode).toBe(1);
  });

  it('maps electricity and cable sheets', () => {
    expect(detectMapping(['Meter Number', 'Disco', 'Meter Type', 'Amount', 'Phone'], 'electricity')).toMatchObject({ meter: 0, disco: 1, vendType: 2, amount: 3, phone: 4 });
    expect(detectMapping(['IUC Number', 'Provider', 'Package', 'Phone'], 'cable')).toMatchObject({ smartcard: 0, provider: 1, bouquet: 2, phone: 3 });
  });

  it('maps the vendor log export columns of the spec', () => {
    const headers = [
      'id',
      'transaction_id',
      'partner_reference',
      'phone_number',
      'amount',
      'transaction_cost',
      'commission',
      'type',
      'network',
      'operator',
      'region',
      'description',
      'data_plan',
      'status',
      'time',
      'created_at',
      'updated_at',
    ];
    expect(detectMapping(headers, 'vendorLog')).toMatchObject({
      id: 0,
      transactionId: 1,
      partnerReference: 2,
      phone: 3,
      amount: 4,
      transactionCost: 5,
      commission: 6,
      type: 7,
      network: 8,
      operator: 9,
      region: 10,
      description: 11,
      dataPlan: 12,
      status: 13,
      time: 14,
      createdAt: 15,
      updatedAt: 16,
    });
  });

  it('leaves fields of other kinds and unknown columns unmapped', () => {
    const mapping = detectMapping(['Phone', 'Amount', 'Favourite colour'], 'contacts');
    expect(mapping.phone).toBe(0);
    expect(mapping.amount).toBeNull();
    expect(mapping.name).toBeNull();
  });

  it('names what is required per kind', () => {
    expect(requiredFields('airtime')).toEqual(['phone', 'amount']);
    expect(requiredFields('data')).toEqual(['phone', 'productCode']);
    expect(fieldsFor('contacts').map((f) => f.key)).toEqual(['phone', 'name']);
    expect(missingFields(detectMapping(['Name', 'Amount'], 'airtime'), 'airtime')).toEqual(['phone']);
  });

  it('a missing phone column is a clear error listing the columns the file has', () => {
    const headers = ['Name', 'Amount'];
    try {
      assertMappingComplete(detectMapping(headers, 'airtime'), 'airtime', headers);
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toBeInstanceOf(ImportError);
      expect((error as ImportError).code).toBe('missing_column');
      expect((error as ImportError).message).toMatch(/No Phone column found/);
      expect((error as ImportError).message).toContain('"Name", "Amount"');
    }
  });

  it('headersKey is the same for the same columns however they are spelled, and differs otherwise', () => {
    expect(headersKey(['Phone Number', 'Amount'])).toBe(headersKey([' phone_number', 'AMOUNT', '']));
    expect(headersKey(['Phone', 'Amount'])).not.toBe(headersKey(['Amount', 'Phone']));
    expect(headersKey(['Phone', 'Amount'])).toMatch(/^[0-9a-f]{32}$/);
  });
});
