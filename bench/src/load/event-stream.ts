import http from 'node:http';

/** One event as a stream delivered it: its `id:` and its `data:` lines joined. */
export interface StreamedEvent {
  readonly id: string;
  readonly data: string;
}

/** An open Server-Sent Events stream; `close()` leaves it, as a closed browser tab does. */
export interface OpenEventStream {
  close(): void;
}

// The fields of one frame that matter here; a comment (keep-alive) or a lone `retry:` has no id.
function parseFrame(frame: string): StreamedEvent | undefined {
  let id: string | undefined;
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    const value = line.slice(line.indexOf(':') + 1).replace(/^ /, '');
    if (line.startsWith('id:')) id = value;
    else if (line.startsWith('data:')) data.push(value);
  }
  return id === undefined ? undefined : { id, data: data.join('\n') };
}

/**
 * Opens `url` as an event stream on a connection of its own (no agent: one socket a stream, as
 * browsers' tabs have), resolves once its 200 `text/event-stream` head has arrived, and calls
 * `onEvent` with each event that carries an id. Rejects on any other answer.
 */
export function openEventStream(
  url: string,
  onEvent: (event: StreamedEvent) => void,
): Promise<OpenEventStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      const type = response.headers['content-type'] ?? '';
      if (response.statusCode !== 200 || !type.startsWith('text/event-stream')) {
        request.destroy();
        return reject(new Error(`${url} answered ${response.statusCode} ${type}, not an event stream`));
      }
      let pending = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        pending += chunk;
        for (let end = pending.indexOf('\n\n'); end !== -1; end = pending.indexOf('\n\n')) {
          const event = parseFrame(pending.slice(0, end));
          pending = pending.slice(end + 2);
          if (event !== undefined) onEvent(event);
        }
      });
      response.on('error', () => undefined); // a stream the runner closes ends with a reset
      resolve({ close: () => request.destroy() });
    });
    request.on('error', reject);
  });
}
