// The benchmarks' API side: the built server on a benchmark database, and members with real
// sessions calling it over keep-alive HTTP.
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { freePort } from './cluster.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The newest mail subject per recipient, as the benchmark's SMTP catcher received it. */
const subjectsByRecipient = new Map();

/** RFC 2047 encoded words (=?UTF-8?B?…?= / =?UTF-8?Q?…?=), as nodemailer writes non-ASCII subjects. */
function decodeHeader(value) {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_whole, _charset, encoding, text) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, hex) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/**
 * A real SMTP server on a free port for the server under test: codes reach members only by mail
 * (the outbox keeps them masked, docs/decisions/016).
 */
async function startMailCatcher() {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const head = raw.slice(0, raw.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
        const subject = decodeHeader(/^Subject:\s*(.*)$/im.exec(head)?.[1]?.trim() ?? '');
        for (const recipient of session.envelope.rcptTo) subjectsByRecipient.set(recipient.address, subject);
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, close: () => server.close() };
}

/** Starts `server/dist/main.js` on `databaseUrl` (no background jobs) and waits until it is healthy. */
export async function startApiServer(databaseUrl, nodeArgs = []) {
  const mail = await startMailCatcher();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'server', 'dist', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SMTP_URL: mail.url,
      DATABASE_POOL_SIZE: '40',
      HOST: '127.0.0.1',
      PORT: String(port),
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      JOBS_ENABLED: 'false',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; ; attempt += 1) {
    const healthy = await fetch(`${baseUrl}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) break;
    if (attempt > 300) throw new Error('server did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    baseUrl,
    pid: child.pid,
    /** Asks the server to stop; answers once it has exited (its last database work done). */
    stop: () => {
      const exited = child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      mail.close();
      return exited;
    },
  };
}

/** `api(path, body, token, address)` and `makeMember(index)` against a running server and its database. */
export function benchMembers(baseUrl, db) {
  // Each member calls from its own address, as behind the platform's load balancer (TRUST_PROXY), so
  // per-address rate limits see 32 people, not one.
  // node:http with a keep-alive agent: global fetch costs the load generator about four times the CPU,
  // which on a small machine is taken from the server under test.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  function api(pathName, body, token, address = '10.0.0.1') {
    const payload = body ? JSON.stringify(body) : undefined;
    return new Promise((resolve, reject) => {
      const request = http.request(
        `${baseUrl}${pathName}`,
        {
          agent,
          method: body ? 'POST' : 'GET',
          headers: {
            'content-type': 'application/json',
            'x-forwarded-for': address,
            ...(payload ? { 'content-length': Buffer.byteLength(payload) } : {}),
            ...(token ? { authorization: token } : {}),
          },
        },
        (response) => {
          const chunks = [];
          response.on('data', (chunk) => chunks.push(chunk));
          response.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch (error) {
              reject(error);
            }
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  /** A member with a trading password, a sub-account and plenty of USDT and RAB (credited in SQL). */
  async function makeMember(index) {
    const email = `bench-${index}@example.com`;
    const address = `10.0.1.${index + 1}`;
    const { rows: settings } = await db.query(`select value from platform_settings where key = 'registration'`);
    const invitationCode = settings[0].value.rootInviteCode;
    await api('/api/auth/send_register_code', { email, invitationCode }, undefined, address);
    let code;
    for (let attempt = 0; !code && attempt < 50; attempt += 1) {
      code = /\b(\d{6})\b/.exec(subjectsByRecipient.get(email) ?? '')?.[1];
      if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const registered = await api(
      '/api/auth/register',
      { email, code, invitationCode, password: 'bench-password', confirmPassword: 'bench-password' },
      undefined,
      address,
    );
    const token = registered.data.token;
    await api('/api/user/set_trade_password', { password: 'trade-pass-1', confirmPassword: 'trade-pass-1' }, token, address);
    const subId = (await api('/api/account/create_sub', { nickname: 'Sub' }, token, address)).data.id;
    const mainId = (await api('/api/account/list', undefined, token, address)).data.find((a) => a.current).id;
    for (const asset of ['USDT', 'RAB']) {
      await db.query('begin');
      const { rows } = await db.query(
        `insert into journal_entries (idempotency_key, kind) values ($1, 'bench_fund') returning id`,
        [`bench-fund:${mainId}:${asset}`],
      );
      const { rows: accounts } = await db.query(
        `select id from ledger_accounts where (owner_account_id = $1 and asset = $2 and purpose = 'available') or (platform_code = 'adjustments' and asset = $2) order by platform_code nulls first`,
        [mainId, asset],
      );
      await db.query(`update ledger_accounts set balance = balance + 1000000 where id = $1`, [accounts[0].id]);
      await db.query(`update ledger_accounts set balance = balance - 1000000 where id = $1`, [accounts[1].id]);
      await db.query(
        `insert into postings (entry_id, ledger_account_id, asset, amount, balance_after, record_type) values
         ($1, $2, $4, 1000000, 1000000, 'adjustment_credit'), ($1, $3, $4, -1000000, (select balance from ledger_accounts where id = $3), 'adjustment_credit')`,
        [rows[0].id, accounts[0].id, accounts[1].id, asset],
      );
      await db.query('commit');
    }
    return { token, mainId, subId, address };
  }

  return { api, makeMember };
}

/** Transfers of 0.0001 USDT main → sub by each member in a loop until `untilDone` resolves; returns latencies (ms). */
export async function transferLoad(api, members, untilDone) {
  const latencies = [];
  let done = false;
  void untilDone.then(() => (done = true));
  await Promise.all(
    members.map(async (member) => {
      while (!done) {
        const begin = performance.now();
        await api(
          '/api/account/transfer',
          {
            toAccountId: member.subId,
            asset: 'USDT',
            amount: '0.0001',
            tradePassword: 'trade-pass-1',
            idempotencyKey: crypto.randomUUID(),
          },
          member.token,
          member.address,
        );
        latencies.push(performance.now() - begin);
      }
    }),
  );
  return latencies.sort((a, b) => a - b);
}
