// A scripted model server on a loopback port, so the real Claude Code and
// Codex binaries can run their whole tool loop with no network: it speaks the
// Anthropic Messages API (POST /v1/messages) and the OpenAI Responses API
// (POST /v1/responses), both streaming (SSE), and answers each model request
// with the next scripted step — a tool call, or the final text — chosen by
// how many tool results the request carries back (so a CLI that retries a
// request gets the same step again). Every request is recorded.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * One scripted assistant turn:
 * - `{ tool, input }`: a tool call — Anthropic `tool_use`; OpenAI `function_call`
 *   whose `arguments` are `input` as JSON, or with `custom: true` a
 *   `custom_tool_call` (codex's freeform `apply_patch`) whose input is `input.text`;
 * - `{ text }`: the final answer (end of the turn loop);
 * - `{ hang: true }`: accept the request and never answer (a silent model);
 * - `{ crash: true }`: start the stream, then drop the connection mid-stream.
 */
export type Step = { tool: string; input: Record<string, unknown>; custom?: boolean } | { text: string } | { hang: true } | { crash: true };

/** A tool result the CLI sent back (Anthropic `tool_result`; OpenAI `function_call_output` / `custom_tool_call_output`). */
export interface ToolResult {
  content: string;
  /** Anthropic `is_error`; always false for OpenAI (the output text says what happened). */
  isError: boolean;
}

/** One HTTP request the server received, in arrival order. */
export interface RecordedRequest {
  api: 'anthropic' | 'openai' | 'other';
  method: string;
  path: string;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** The body as received. */
  text: string;
  /** `step` = a model request answered with a scripted step (index `step`); `side` = a tool-less side request; `none` = 404. */
  answered: 'step' | 'side' | 'none';
  step: number | null;
  /** The tool results the request carried back, in order (empty for a side request or a non-model call). */
  results: ToolResult[];
  /** The tool names the request offered the model (empty when none). */
  tools: string[];
}

/** A running scripted model. `url` is the origin (`http://127.0.0.1:<port>`); the APIs live under `/v1`. */
export interface ScriptedModel {
  url: string;
  port: number;
  /** Every request received, in order. */
  requests(): RecordedRequest[];
  /** How many model requests were answered with a scripted step (the model "turns"). */
  stepsAnswered(): number;
  /** The tool results carried by the latest model request, in order. */
  toolResults(): ToolResult[];
  close(): Promise<void>;
}

/**
 * The script: a list (step `i` answers a request carrying `i` tool results; past
 * its end the last step repeats), or a function of the results so far and the
 * request (e.g. to serve several CLIs at once, routed by their prompt's text).
 */
export type Script = Step[] | ((results: ToolResult[], request: RecordedRequest) => Step);

/**
 * Start a scripted model on `127.0.0.1` (an ephemeral port; it never listens on
 * another address). @returns the server handle; `close()` ends hanging streams too.
 */
export async function startScriptedModel(script: Script, o: { model?: string } = {}): Promise<ScriptedModel> {
  const model = o.model ?? 'scripted-model';
  const recorded: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();
  let latest: ToolResult[] = [];
  let answered = 0;
  const pick = (results: ToolResult[], request: RecordedRequest): Step =>
    typeof script === 'function' ? script(results, request) : script[Math.min(results.length, script.length - 1)]!;

  const server: Server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    readBody(req).then(
      (text) => {
        const path = req.url ?? '/';
        const body = parseJson(text);
        const api = path.startsWith('/v1/messages') ? 'anthropic' : path.startsWith('/v1/responses') ? 'openai' : 'other';
        const entry: RecordedRequest = { api, method: req.method ?? '', path, body, text, answered: 'none', step: null, results: [], tools: toolNames(body) };
        recorded.push(entry);
        const isModelCall = req.method === 'POST' && api !== 'other' && !path.includes('count_tokens') && isObject(body);
        if (!isModelCall) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
        // A side request offering no tools (a title, a summary) gets a plain answer and is not a turn.
        if (entry.tools.length === 0) {
          entry.answered = 'side';
          return api === 'anthropic' ? anthropicStream(res, { text: 'ok' }, 0, model) : openaiStream(res, { text: 'ok' }, 0, model);
        }
        const results = api === 'anthropic' ? anthropicResults(body) : openaiResults(body);
        latest = results;
        entry.results = results;
        const step = pick(results, entry);
        entry.answered = 'step';
        entry.step = results.length;
        answered++;
        if ('hang' in step) return void res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': scripted hang\n\n');
        if (api === 'anthropic') anthropicStream(res, step, answered, model);
        else openaiStream(res, step, answered, model);
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests: () => [...recorded],
    stepsAnswered: () => answered,
    toolResults: () => latest,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * How a model request asks for a schema-bound final answer, if it does: Claude
 * Code offers a `StructuredOutput` tool (its `--json-schema`: the tool's
 * `input_schema`); codex sends Responses `text.format` `{ type: json_schema,
 * strict: true, schema }` (its `--output-schema`). @returns which, and the schema.
 */
export function structuredOutputOf(request: RecordedRequest): { mechanism: 'anthropic-tool' | 'openai-json-schema'; schema: unknown } | null {
  const body = request.body;
  if (!isObject(body)) return null;
  if (request.api === 'anthropic' && Array.isArray(body.tools)) {
    const tool = (body.tools as unknown[]).find((t) => isObject(t) && t.name === 'StructuredOutput');
    return isObject(tool) ? { mechanism: 'anthropic-tool', schema: tool.input_schema } : null;
  }
  const format = isObject(body.text) && isObject(body.text.format) ? body.text.format : null;
  return request.api === 'openai' && format?.type === 'json_schema' ? { mechanism: 'openai-json-schema', schema: format.schema } : null;
}

/**
 * The final answer `object` through the request's own structured-output
 * mechanism ({@link structuredOutputOf}): a `StructuredOutput` tool call for
 * Claude Code, the object as the message text for codex's json_schema format.
 * @throws when the request asked for no structured output (a launch that should have).
 */
export function structuredAnswerStep(request: RecordedRequest, object: unknown): Step {
  const asked = structuredOutputOf(request);
  if (!asked) throw new Error(`the ${request.api} request asked for no structured output`);
  return asked.mechanism === 'anthropic-tool' ? { tool: 'StructuredOutput', input: object as Record<string, unknown> } : { text: JSON.stringify(object) };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function toolNames(body: unknown): string[] {
  if (!isObject(body) || !Array.isArray(body.tools)) return [];
  return (body.tools as unknown[]).map((t) => (isObject(t) ? String(t.name ?? t.type ?? '') : '')).filter(Boolean);
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function anthropicResults(body: Record<string, unknown>): ToolResult[] {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  return messages
    .flatMap((m) => (isObject(m) && Array.isArray(m.content) ? (m.content as unknown[]) : []))
    .filter((c): c is Record<string, unknown> => isObject(c) && c.type === 'tool_result')
    .map((c) => ({ content: asText(c.content), isError: c.is_error === true }));
}

function openaiResults(body: Record<string, unknown>): ToolResult[] {
  const input = Array.isArray(body.input) ? (body.input as unknown[]) : [];
  return input
    .filter((c): c is Record<string, unknown> => isObject(c) && (c.type === 'function_call_output' || c.type === 'custom_tool_call_output'))
    .map((c) => ({ content: asText(isObject(c.output) && 'content' in c.output ? c.output.content : c.output), isError: false }));
}

type Answer = Exclude<Step, { hang: true }>;

function sse(res: ServerResponse): (type: string, data: Record<string, unknown>) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  return (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

function anthropicStream(res: ServerResponse, step: Answer, n: number, model: string): void {
  const send = sse(res);
  const usage = { input_tokens: 100, output_tokens: 1 };
  send('message_start', { message: { id: `msg_${n}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } });
  if ('crash' in step) return void res.destroy();
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

function openaiStream(res: ServerResponse, step: Answer, n: number, model: string): void {
  const send = sse(res);
  const id = `resp_${n}`;
  send('response.created', { response: { id, object: 'response', model, status: 'in_progress', output: [] } });
  if ('crash' in step) return void res.destroy();
  let item: Record<string, unknown>;
  if ('text' in step)
    item = { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: step.text, annotations: [] }] };
  else if (step.custom)
    item = { type: 'custom_tool_call', id: `ctc_${n}`, call_id: `call_${n}`, name: step.tool, input: String(step.input.text ?? ''), status: 'completed' };
  else item = { type: 'function_call', id: `fc_${n}`, call_id: `call_${n}`, name: step.tool, arguments: JSON.stringify(step.input), status: 'completed' };
  send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } });
  if ('text' in step) send('response.output_text.delta', { output_index: 0, content_index: 0, item_id: item.id, delta: step.text });
  send('response.output_item.done', { output_index: 0, item });
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  };
  send('response.completed', { response: { id, object: 'response', model, status: 'completed', output: [item], usage } });
  res.end();
}
