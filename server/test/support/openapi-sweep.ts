import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';

/**
 * Reading the app's own OpenAPI document into operations to sweep, and making the requests an
 * attacker would try on each. Nothing here names a call: a call added later is swept the day it is
 * registered (decision 018).
 */

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Parameter {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

export type Caller = 'member' | 'operator' | 'public';

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  /** As OpenAPI writes it: /api/admin/members/{id}. */
  path: string;
  caller: Caller;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  body: JsonSchema | null;
}

interface OpenApiOperation {
  security?: Record<string, unknown>[];
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema: JsonSchema }> };
}

export function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      const caller: Caller = schemes.includes('operatorToken')
        ? 'operator'
        : schemes.includes('memberToken')
          ? 'member'
          : 'public';
      const parameters = operation.parameters ?? [];
      const pick = (where: string) =>
        parameters
          .filter((parameter) => parameter.in === where)
          .map((parameter) => ({ name: parameter.name, required: parameter.required ?? false, schema: parameter.schema }));
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        caller,
        pathParameters: pick('path'),
        queryParameters: pick('query'),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

export const describeOperation = (operation: Operation) => `${operation.method} ${operation.path}`;

/** The schema a value must follow, with `anyOf` narrowed to its first non-null branch. */
function concrete(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return concrete(branches.find((branch) => branch.type !== 'null') ?? branches[0]!);
  if (schema.allOf?.length === 1) return concrete(schema.allOf[0]!);
  return schema;
}

export function isIdField(name: string, schema: JsonSchema): boolean {
  return (name === 'id' || name.endsWith('Id')) && concrete(schema).format === 'uuid';
}

/**
 * A plausible valid value for a field: what a well-behaved client would send. Names carry the domain
 * knowledge a JSON schema cannot (a money amount, a code); anything unknown gets a value by its type.
 */
const VALUE_BY_NAME: [RegExp, () => unknown][] = [
  [/^email$|^recipient$/, () => 'sweep-nobody@example.com'],
  [/^(code|googleCode|oldGoogleCode|newGoogleCode)$/, () => '123456'],
  [/^tradePassword$/, () => 'trade-pass-1'],
  [/^oldTradePassword$/, () => 'trade-pass-1'],
  [/[pP]assword$/, () => 'sweep-password-long-enough'],
  [/^idempotencyKey$/, () => randomUUID()],
  [/^(amount|minAmount|maxAmount|minimum|maximum|dailyLimit|feeFixed|priceUsdt|priceTickets)$/, () => '100'],
  [/^(openTime)$/, () => '09:00'],
  [/^(closeTime)$/, () => '17:00'],
  [/^(minRab|minUsdt)$/, () => '1.0000'],
  [/^(date|day)$/, () => '2026-12-24'],
  [/^address$/, () => '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'],
  [/^cardNumber$/, () => '6222020200112233445'],
  [/^invitationCode$/, () => 'SWEEP01'],
];

export function sampleValue(name: string, schema: JsonSchema, idFor: (name: string) => string = () => randomUUID()): unknown {
  const narrowed = concrete(schema);
  if (isIdField(name, narrowed)) return idFor(name);
  for (const [pattern, make] of VALUE_BY_NAME) if (pattern.test(name)) return make();
  if (narrowed.const !== undefined) return narrowed.const;
  if (narrowed.enum?.length) return narrowed.enum[0];
  if (narrowed.default !== undefined) return narrowed.default;
  const type = Array.isArray(narrowed.type) ? narrowed.type[0] : narrowed.type;
  switch (type) {
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return Math.max(narrowed.minimum ?? 1, 1);
    case 'array':
      return [];
    case 'object':
      return sampleObject(narrowed, idFor);
    case undefined:
    default:
      if (narrowed.format === 'uuid') return randomUUID();
      if (narrowed.pattern && /\\d/.test(narrowed.pattern)) return '1';
      return 'sweep'.padEnd(Math.min(Math.max(narrowed.minLength ?? 1, 5), narrowed.maxLength ?? 64), 'x');
  }
}

export function sampleObject(schema: JsonSchema, idFor?: (name: string) => string): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(concrete(schema).properties ?? {}))
    object[name] = sampleValue(name, property, idFor);
  return object;
}

/** Fills `{name}` in an OpenAPI path. */
export function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => values[name] ?? 'missing');
}

export function samplePath(operation: Operation, overrides: Record<string, string> = {}): string {
  const values: Record<string, string> = {};
  for (const parameter of operation.pathParameters) {
    values[parameter.name] =
      overrides[parameter.name] ?? encodeURIComponent(String(sampleValue(parameter.name, parameter.schema)));
  }
  return fillPath(operation.path, values);
}

/** A request the sweep makes: the inject options and what it tries, for the report. */
export interface Probe {
  label: string;
  request: InjectOptions;
}

const BIG_TEXT = 'A'.repeat(100 * 1024);
const LONE_SURROGATE = 'a\uD800b';

/** Values that each break a field in its own way (for text, numbers and money alike). */
export const BAD_VALUES: [string, unknown][] = [
  ['number', 12345],
  ['boolean', true],
  ['null', null],
  ['object', { nested: 'x' }],
  ['array', ['x', 'y']],
  ['empty', ''],
  ['100 kB', BIG_TEXT],
  ['NUL', 'a\u0000b'],
  ['lone surrogate', LONE_SURROGATE],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['huge', '99999999999999999999999999999999999.0000'],
  ['negative', '-1.0000'],
  ['5 places', '1.00001'],
  ['exponent', '1e309'],
  ['fraction number', 1.23456],
  ['negative number', -1],
  ['huge number', 2 ** 64],
  ['year 0000', '0000-01-01'],
];

/** Raw JSON bodies JSON.stringify cannot write. */
const RAW_JSON_NUMBERS: [string, string][] = [
  ['1e999', '1e999'],
  ['-1e999', '-1e999'],
];

/** Path parameter values: broken escapes, too long, NUL, surrogates, traversal. */
export const BAD_PATH_VALUES: [string, string][] = [
  ['broken %-escape', '%E0%A4%A'],
  ['lone %', '%'],
  ['over 100 characters', 'x'.repeat(150)],
  ['NUL', '%00'],
  ['lone surrogate as UTF-8', '%ED%A0%80'],
  ['traversal', '..%2F..%2Fetc'],
  ['NaN', 'NaN'],
  ['negative', '-1'],
  ['year 0000', '0000-01-01'],
  ['not a uuid', 'not-a-uuid'],
];

/** Query values, already encoded as they would travel. */
export const BAD_QUERY_VALUES: [string, string][] = [
  ['NUL', '%00'],
  ['broken %-escape', '%E0%A4%A'],
  ['lone surrogate as UTF-8', '%ED%A0%80'],
  ['100 kB', 'A'.repeat(100 * 1024)],
  ['NaN', 'NaN'],
  ['negative', '-1'],
  ['huge', '99999999999999999999999999'],
  ['fraction', '1.5'],
  ['empty', ''],
];

function withQuery(url: string, query: string): string {
  return query ? `${url}?${query}` : url;
}

function encodeQuery(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

/** Every malformed request the sweep makes to one operation (headers other than auth and lang added by the caller). */
export function malformedProbes(operation: Operation): Probe[] {
  const probes: Probe[] = [];
  const method = operation.method;
  const url = samplePath(operation);
  const validQuery: Record<string, unknown> = {};
  for (const parameter of operation.queryParameters) validQuery[parameter.name] = sampleValue(parameter.name, parameter.schema);
  const query = encodeQuery(validQuery);
  const base = operation.body ? sampleObject(operation.body) : null;
  const json = (payload: unknown, label: string) =>
    probes.push({
      label,
      request: {
        method,
        url: withQuery(url, query),
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      },
    });

  // Path parameters, one at a time.
  for (const parameter of operation.pathParameters) {
    for (const [label, value] of BAD_PATH_VALUES) {
      probes.push({
        label: `path ${parameter.name}: ${label}`,
        request: {
          method,
          url: withQuery(samplePath(operation, { [parameter.name]: value }), query),
          ...(base ? { payload: base } : {}),
        },
      });
    }
  }
  // Query parameters, one at a time, plus repeated and unknown ones.
  for (const parameter of operation.queryParameters) {
    const others = encodeQuery(Object.fromEntries(Object.entries(validQuery).filter(([name]) => name !== parameter.name)));
    for (const [label, value] of BAD_QUERY_VALUES) {
      probes.push({
        label: `query ${parameter.name}: ${label}`,
        request: { method, url: withQuery(url, [others, `${parameter.name}=${value}`].filter(Boolean).join('&')) },
      });
    }
    probes.push({
      label: `query ${parameter.name}: repeated`,
      request: { method, url: withQuery(url, [others, `${parameter.name}=1`, `${parameter.name}=2`].filter(Boolean).join('&')) },
    });
  }
  probes.push({ label: 'query: unknown and broken', request: { method, url: withQuery(url, `${query}&zz%00=%FF&&=&%`) } });
  probes.push({ label: 'query: NUL in an unknown name', request: { method, url: withQuery(url, `${query}&a%00b=1`) } });

  if (method === 'GET' || method === 'DELETE') {
    probes.push({
      label: 'unexpected JSON body',
      request: { method, url, headers: { 'content-type': 'application/json' }, payload: '{"a":' },
    });
    return probes;
  }
  // Whole-body attacks.
  const raw = (payload: string, contentType: string, label: string) =>
    probes.push({ label, request: { method, url: withQuery(url, query), headers: { 'content-type': contentType }, payload } });
  raw('{"a":', 'application/json', 'invalid JSON');
  raw('', 'application/json', 'empty JSON body');
  raw('null', 'application/json', 'JSON null');
  raw('"text"', 'application/json', 'JSON string');
  raw('[{"a":1}]', 'application/json', 'array for an object');
  raw('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}', 'application/json', 'prototype keys');
  raw(`{"a\\u0000b":1}`, 'application/json', 'NUL in a key');
  raw('a=1&b=%00&c[d]=e', 'application/x-www-form-urlencoded', 'form body');
  raw(encodeQuery(base ?? {}), 'application/x-www-form-urlencoded', 'form body of the fields');
  raw('hello', 'text/plain', 'text/plain body');
  raw('<a/>', 'application/xml', 'XML body');
  raw('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--', 'multipart/form-data; boundary=b', 'multipart body');
  raw('{}', 'application/json; charset=latin1', 'JSON in latin1');
  json({}, 'missing fields');
  if (base) {
    json({ ...base, zzUnexpected: 'x' }, 'extra field');
    for (const name of Object.keys(base)) {
      const { [name]: _dropped, ...without } = base;
      json(without, `${name}: missing`);
      for (const [label, value] of BAD_VALUES) json({ ...base, [name]: value }, `${name}: ${label}`);
      for (const [label, text] of RAW_JSON_NUMBERS) {
        const encoded = JSON.stringify({ ...base, [name]: 0 }).replace(`"${name}":0`, `"${name}":${text}`);
        raw(encoded, 'application/json', `${name}: ${label}`);
      }
    }
  }
  return probes;
}

export interface Verdict {
  fiveHundred: boolean;
  envelope: boolean;
  localised: boolean;
}

const NON_LATIN_LANGS = new Set(['CN', 'JP', 'KO', 'TW', 'DE']);

/**
 * What a sweep demands of every answer: below 500, the `{code, message, data}` envelope with a
 * message that is words (not the code), and in a language with its own script, not English.
 */
/** What a call answered; `streamed` when it opened a text/event-stream (only its first frame is read). */
export interface Answer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  streamed: boolean;
  json<T = unknown>(): T;
}

export function judge(response: Answer, lang: string): Verdict {
  const fiveHundred = response.statusCode >= 500;
  // A live channel opened for a member is that call's own answer (decision 022): not an envelope,
  // and nothing in the request it ignores can change that.
  if (response.streamed && response.statusCode === 200) return { fiveHundred, envelope: true, localised: true };
  let body: Record<string, unknown>;
  try {
    body = response.json<Record<string, unknown>>();
  } catch {
    return { fiveHundred, envelope: false, localised: false };
  }
  const envelope =
    typeof body.code === 'number' &&
    typeof body.message === 'string' &&
    body.message.trim() !== '' &&
    body.message !== String(body.code) &&
    'data' in body &&
    (body.code === 200 || body.data === null) &&
    (response.headers['content-type'] ?? '').toString().startsWith('application/json');
  const nonAscii = [...String(body.message)].some((character) => character.charCodeAt(0) > 0x7f);
  return { fiveHundred, envelope, localised: envelope && (!NON_LATIN_LANGS.has(lang) || nonAscii) };
}
