import type { z } from 'zod';
import {
  machineDailyOutput,
  machineProductInput,
  money,
  type adminMachineProductsResponse,
  type adminMemberMachinesResponse,
  type MachineProduct,
  type MemberMachine,
} from '@custos/contract';
import { toMoneyString } from '../../lib/decimal';

export type MachineProductInput = z.infer<typeof machineProductInput>;
/** A product as the console lists it: with the number of bought machines still running on it. */
export type AdminMachineProduct = z.infer<typeof adminMachineProductsResponse>[number];
/** A member's machine as the console lists it: with the member's e-mail and account. */
export type AdminMemberMachine = z.infer<typeof adminMemberMachinesResponse>['items'][number];
export type MachineStatus = MemberMachine['status'];

// ── Statuses ─────────────────────────────────────────────────────────────────────────────────────

export const PRODUCT_STATUS_LABELS: Record<MachineProduct['status'], string> = { active: 'On sale', retired: 'Retired' };
/** antd Tag colours. */
export const PRODUCT_STATUS_COLOURS: Record<MachineProduct['status'], string> = { active: 'green', retired: 'default' };

export const MACHINE_STATUS_LABELS: Record<MachineStatus, string> = { running: 'Running', expired: 'Expired' };
export const MACHINE_STATUS_COLOURS: Record<MachineStatus, string> = { running: 'blue', expired: 'default' };

// ── Product form ─────────────────────────────────────────────────────────────────────────────────

/** The product form: every field as typed. */
export interface ProductForm {
  name: string;
  hashrate: string;
  priceUsdt: string;
  priceTickets: string;
  dailyOutputPerT: string;
  lifetimeDays: string;
}

export const PRODUCT_FIELD_LABELS: Record<keyof ProductForm, string> = {
  name: 'Name',
  hashrate: 'Hashrate (T)',
  priceUsdt: 'Price in USDT',
  priceTickets: 'Price in tickets',
  dailyOutputPerT: 'Output per T a day (RAB)',
  lifetimeDays: 'Lifetime (days)',
};

export const EMPTY_PRODUCT_FORM: ProductForm = {
  name: '',
  hashrate: '',
  priceUsdt: '',
  priceTickets: '',
  dailyOutputPerT: '',
  lifetimeDays: '',
};

export function productToForm(product: MachineProduct): ProductForm {
  return {
    name: product.name,
    hashrate: product.hashrate,
    priceUsdt: product.priceUsdt,
    priceTickets: product.priceTickets,
    dailyOutputPerT: product.dailyOutputPerT,
    lifetimeDays: String(product.lifetimeDays),
  };
}

const PRICE_PROBLEM = 'Enter a positive amount with at most 4 decimal places';

/** What to tell the operator for a field the contract's `machineProductInput` refused. */
function fieldProblem(field: keyof ProductForm, reason: string): string {
  switch (field) {
    case 'name':
      return reason === 'too_long' ? 'At most 40 characters' : 'Enter the name members see';
    case 'hashrate':
      return 'Enter a positive hashrate in T with at most 4 decimal places, e.g. 10 or 12.5';
    case 'priceUsdt':
    case 'priceTickets':
      return PRICE_PROBLEM;
    case 'dailyOutputPerT':
      return 'Enter the RAB one T produces a day, with at most 8 decimal places, e.g. 0.5';
    case 'lifetimeDays':
      return 'Enter a whole number of days from 1 to 3650';
  }
}

function isProductField(field: unknown): field is keyof ProductForm {
  return typeof field === 'string' && field in PRODUCT_FIELD_LABELS;
}

/**
 * The form as the body the server takes, checked with the contract's own `machineProductInput`:
 * prices written with four places, the lifetime a whole number. Otherwise the first problem of each field.
 */
export function toProductInput(
  form: ProductForm,
): { input: MachineProductInput } | { problems: Partial<Record<keyof ProductForm, string>> } {
  const lifetime = form.lifetimeDays.trim();
  const price = (text: string) => toMoneyString(text) ?? text.trim();
  const parsed = machineProductInput.safeParse({
    name: form.name.trim(),
    hashrate: form.hashrate.trim(),
    priceUsdt: price(form.priceUsdt),
    priceTickets: price(form.priceTickets),
    dailyOutputPerT: form.dailyOutputPerT.trim(),
    lifetimeDays: /^\d{1,6}$/.test(lifetime) ? Number(lifetime) : lifetime,
  });
  if (parsed.success) return { input: parsed.data };
  const problems: Partial<Record<keyof ProductForm, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (!isProductField(field) || problems[field]) continue;
    problems[field] = fieldProblem(field, issue.message);
  }
  return { problems };
}

/**
 * What a machine of these terms produces, as the server pays it (the contract's `machineDailyOutput`:
 * hashrate × output per T rounded down) each day, and over its lifetime.
 */
export function productExample(input: Pick<MachineProductInput, 'hashrate' | 'dailyOutputPerT' | 'lifetimeDays'>): {
  daily: string;
  lifetime: string;
} {
  const daily = machineDailyOutput(input);
  return {
    daily: money.formatMoney(daily),
    lifetime: money.formatMoney(money.multiply(daily, String(input.lifetimeDays), 'down')),
  };
}
