/**
 * Pino's JSON lines as a person reads them on a terminal (`07:12:03.120 INFO  message  key=value`),
 * used when stdout is a TTY; pipes and files keep the JSON. A few lines instead of pino-pretty and its
 * dependencies.
 */

const LEVELS: Record<number, { name: string; color: string }> = {
  10: { name: 'TRACE', color: '90' },
  20: { name: 'DEBUG', color: '36' },
  30: { name: 'INFO', color: '32' },
  40: { name: 'WARN', color: '33' },
  50: { name: 'ERROR', color: '31' },
  60: { name: 'FATAL', color: '35' },
};

/** Fields every line has, or that the line's head already shows. */
const HIDDEN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'v']);

function paint(text: string, color: string, colors: boolean): string {
  return colors ? `\u001b[${color}m${text}\u001b[0m` : text;
}

function clock(time: unknown): string {
  const date = typeof time === 'number' || typeof time === 'string' ? new Date(time) : new Date();
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}

function show(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  return JSON.stringify(value) ?? String(value);
}

/** Fastify's request objects, shortened to what identifies the request. */
function fields(record: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(record)) {
    if (HIDDEN.has(key)) continue;
    if (key === 'req' && value && typeof value === 'object') {
      const request = value as { method?: unknown; url?: unknown; remoteAddress?: unknown };
      out.push(['req', `${String(request.method)} ${String(request.url)}`]);
      continue;
    }
    if (key === 'res' && value && typeof value === 'object') {
      out.push(['status', (value as { statusCode?: unknown }).statusCode]);
      continue;
    }
    out.push([key, value]);
  }
  return out;
}

/** One pino line (JSON) as text; a line that is not JSON passes through unchanged. */
export function formatLogLine(line: string, colors: boolean): string {
  let record: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return line.endsWith('\n') ? line : `${line}\n`;
    record = parsed as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const rawLevel = typeof record.level === 'number' || typeof record.level === 'string' ? String(record.level) : '?';
  const level = LEVELS[Number(rawLevel)] ?? { name: rawLevel, color: '37' };
  const head = `${paint(clock(record.time), '90', colors)} ${paint(level.name.padEnd(5), level.color, colors)}`;
  const message = typeof record.msg === 'string' ? record.msg : '';
  const extra = fields(record)
    .map(([key, value]) => `${paint(key, '90', colors)}=${show(value)}`)
    .join(' ');
  let text = [head, message, extra].filter((part) => part !== '').join('  ');
  const error = record.err as { type?: unknown; message?: unknown; stack?: unknown } | undefined;
  if (error && typeof error === 'object') {
    const stack = typeof error.stack === 'string' ? error.stack : `${String(error.type)}: ${String(error.message)}`;
    text += `\n${stack
      .split('\n')
      .map((stackLine) => `    ${stackLine}`)
      .join('\n')}`;
  }
  return `${text}\n`;
}

/** A pino destination writing formatted lines to `out`. */
export function prettyDestination(out: NodeJS.WritableStream, colors: boolean): { write(line: string): void } {
  return {
    write(line: string) {
      out.write(formatLogLine(line.trimEnd(), colors));
    },
  };
}
