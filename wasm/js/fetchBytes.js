/** Downloads a file as bytes, reporting progress (total 0 when the server gives no length). */
export async function fetchBytes(url, onProgress) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.pathname ?? url}: ${response.status} ${response.statusText}`);
  // A development server, and many static hosts, answer a path they do not have with their own
  // page and 200: said so, not read as a mangled asset ("bad magic bytes 3c 21 64 6f ...").
  if (response.headers.get('content-type')?.startsWith('text/html')) {
    throw new Error(
      `${url.pathname ?? url}: the server answered with a web page, not the file: most likely ` +
        'it has no file there',
    );
  }
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress?.(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
