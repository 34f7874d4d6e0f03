import { describe, expect, it } from 'vitest';
import { MACHINE_STATUSES, type MachineProduct } from '@custos/contract';
import {
  EMPTY_PRODUCT_FORM,
  MACHINE_STATUS_COLOURS,
  MACHINE_STATUS_LABELS,
  PRODUCT_STATUS_LABELS,
  productExample,
  productToForm,
  toProductInput,
  type ProductForm,
} from './machines';

const form = (overrides: Partial<ProductForm> = {}): ProductForm => ({
  name: '10T',
  hashrate: '10',
  priceUsdt: '500',
  priceTickets: '100',
  dailyOutputPerT: '0.5',
  lifetimeDays: '360',
  ...overrides,
});

describe('machine product form', () => {
  it('becomes the body the server takes, prices with four places and the lifetime a number', () => {
    expect(toProductInput(form({ name: ' 10T ', priceUsdt: ' 499.5 ' }))).toEqual({
      input: {
        name: '10T',
        hashrate: '10',
        priceUsdt: '499.5000',
        priceTickets: '100.0000',
        dailyOutputPerT: '0.5',
        lifetimeDays: 360,
      },
    });
    expect('input' in toProductInput(form({ hashrate: '12.3456' }))).toBe(true);
  });

  it('fills in from a product for editing', () => {
    const product: MachineProduct = {
      id: 'p',
      name: '50T',
      hashrate: '50',
      priceUsdt: '2300.0000',
      priceTickets: '460.0000',
      dailyOutputPerT: '0.52',
      lifetimeDays: 360,
      status: 'active',
    };
    expect(productToForm(product)).toEqual({
      name: '50T',
      hashrate: '50',
      priceUsdt: '2300.0000',
      priceTickets: '460.0000',
      dailyOutputPerT: '0.52',
      lifetimeDays: '360',
    });
    expect(toProductInput(productToForm(product))).toMatchObject({ input: { lifetimeDays: 360, priceUsdt: '2300.0000' } });
  });

  it('refuses what the contract refuses, field by field', () => {
    expect(toProductInput({ ...EMPTY_PRODUCT_FORM })).toMatchObject({
      problems: {
        name: 'Enter the name members see',
        hashrate: 'Enter a positive hashrate in T with at most 4 decimal places, e.g. 10 or 12.5',
        priceUsdt: 'Enter a positive amount with at most 4 decimal places',
        priceTickets: 'Enter a positive amount with at most 4 decimal places',
        lifetimeDays: 'Enter a whole number of days from 1 to 3650',
      },
    });
    expect(toProductInput(form({ hashrate: '0' }))).toEqual({
      problems: { hashrate: 'Enter a positive hashrate in T with at most 4 decimal places, e.g. 10 or 12.5' },
    });
    expect(toProductInput(form({ hashrate: '1.23456' }))).toHaveProperty('problems.hashrate');
    expect(toProductInput(form({ priceTickets: '0' }))).toHaveProperty('problems.priceTickets');
    expect(toProductInput(form({ priceUsdt: '1.23456' }))).toHaveProperty('problems.priceUsdt');
    expect(toProductInput(form({ dailyOutputPerT: '0.123456789' }))).toHaveProperty('problems.dailyOutputPerT');
    expect(toProductInput(form({ dailyOutputPerT: '5%' }))).toHaveProperty('problems.dailyOutputPerT');
    expect(toProductInput(form({ lifetimeDays: '0' }))).toHaveProperty('problems.lifetimeDays');
    expect(toProductInput(form({ lifetimeDays: '3651' }))).toHaveProperty('problems.lifetimeDays');
    expect(toProductInput(form({ lifetimeDays: '30.5' }))).toHaveProperty('problems.lifetimeDays');
    expect(toProductInput(form({ name: 'x'.repeat(41) }))).toEqual({ problems: { name: 'At most 40 characters' } });
  });

  it('previews the output as the server pays it', () => {
    expect(productExample({ hashrate: '10', dailyOutputPerT: '0.5', lifetimeDays: 360 })).toEqual({
      daily: '5.0000',
      lifetime: '1800.0000',
    });
    // 12.3456 × 0.12345678 = 1.524148… → 1.5241 a day (down); × 30 = 45.7230.
    expect(productExample({ hashrate: '12.3456', dailyOutputPerT: '0.12345678', lifetimeDays: 30 })).toEqual({
      daily: '1.5241',
      lifetime: '45.7230',
    });
  });
});

describe('labels', () => {
  it('name every status', () => {
    for (const status of MACHINE_STATUSES) {
      expect(MACHINE_STATUS_LABELS[status]).toBeTruthy();
      expect(MACHINE_STATUS_COLOURS[status]).toBeTruthy();
    }
    expect(PRODUCT_STATUS_LABELS).toEqual({ active: 'On sale', retired: 'Retired' });
  });
});
