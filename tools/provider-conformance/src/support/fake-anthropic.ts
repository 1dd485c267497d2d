// A scripted stand-in for the Anthropic Messages API on a loopback port, so the
// real Claude Code binary can run a whole headless turn loop with no network:
// each request is answered (as a stream) with the next scripted step — a
// tool use, or the final text — chosen by how many tool results it carries.
import { createServer, type Server } from 'node:http';

/** One scripted assistant turn: a tool call, or the final answer. */
export type Step = { tool: string; input: Record<string, unknown> } | { text: string };

export interface FakeApi {
  url: string;
  /** Every tool_result the CLI sent back, in order (its content and whether it was an error). */
  toolResults(): Array<{ content: string; isError: boolean }>;
  close(): Promise<void>;
}

export async function startFakeAnthropic(steps: Step[]): Promise<FakeApi> {
  let seen: Array<{ content: string; isError: boolean }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const request = JSON.parse(body) as { tools?: unknown[]; messages: Array<{ content: unknown }> };
      // A side request without tools (e.g. a title) gets a plain answer.
      if (!request.tools?.length) return stream(res, { text: 'ok' }, 0);
      const results = request.messages
        .flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : []))
        .filter((c) => c.type === 'tool_result')
        .map((c) => ({ content: typeof c.content === 'string' ? c.content : JSON.stringify(c.content), isError: c.is_error === true }));
      seen = results;
      stream(res, steps[Math.min(results.length, steps.length - 1)]!, results.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    toolResults: () => seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function stream(res: import('node:http').ServerResponse, step: Step, n: number): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const usage = { input_tokens: 100, output_tokens: 1 };
  send('message_start', {
    message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-5', content: [], stop_reason: null, stop_sequence: null, usage },
  });
  if ('text' in step) {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: step.text } });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'tool_use', id: `toolu_${n}`, name: step.tool, input: {} } });
    send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(step.input) } });
  }
  send('content_block_stop', { index: 0 });
  send('message_delta', { delta: { stop_reason: 'text' in step ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } });
  send('message_stop', {});
  res.end();
}
