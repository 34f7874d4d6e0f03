import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface JsonRpcCall {
  id: unknown;
  method: string;
  params?: unknown[];
}

/**
 * Answers a call itself (the JSON-RPC `result`), or `undefined` to pass it on to the node. Lets a
 * test stand for a node that answers out of step: behind the head, or from another node's view.
 */
export type RpcIntercept = (call: JsonRpcCall, forward: (call: JsonRpcCall) => Promise<unknown>) => Promise<unknown>;

/** A JSON-RPC proxy on loopback in front of a node; `intercept` may be replaced at any time. */
export class RpcProxy {
  private server: Server | undefined;
  url = '';
  intercept: RpcIntercept | undefined;
  readonly calls: string[] = [];

  constructor(private readonly upstream: string) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcCall | JsonRpcCall[];
          const answer = Array.isArray(body) ? await Promise.all(body.map((call) => this.answer(call))) : await this.answer(body);
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(answer));
        })();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The node's own answer (an error answer is thrown). */
  forward = async (call: JsonRpcCall): Promise<unknown> => {
    const response = await fetch(this.upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: call.id, method: call.method, params: call.params }),
    });
    const json = (await response.json()) as { result?: unknown; error?: { code: number; message: string } };
    if (json.error) throw Object.assign(new Error(json.error.message), { rpcError: json.error });
    return json.result;
  };

  private async answer(call: JsonRpcCall): Promise<object> {
    this.calls.push(call.method);
    try {
      const own = this.intercept ? await this.intercept(call, this.forward) : undefined;
      const result = own === undefined ? await this.forward(call) : own;
      return { jsonrpc: '2.0', id: call.id, result };
    } catch (error) {
      const rpcError = (error as { rpcError?: object }).rpcError ?? { code: -32603, message: String(error) };
      return { jsonrpc: '2.0', id: call.id, error: rpcError };
    }
  }
}
