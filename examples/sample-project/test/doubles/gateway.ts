// A gateway double for the refund tests: answers like the sandbox, records every call.
import { createServer, type Server } from 'node:http';

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

export interface GatewayDouble {
  url: string;
  calls: RecordedCall[];
  delayMs: number; // every answer waits this long (a slow gateway)
  close(): Promise<void>;
}

export async function startGatewayDouble(): Promise<GatewayDouble> {
  const calls: RecordedCall[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk)).on('end', () => {
      calls.push({ method: req.method ?? '', path: req.url ?? '', body: body ? JSON.parse(body) : null });
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: `gw_${calls.length}`, status: 'accepted' }));
      }, double.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const double: GatewayDouble = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls,
    delayMs: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return double;
}
