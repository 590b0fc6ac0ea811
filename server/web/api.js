// The server's easel.v1 services over its HTTP face (docs/serving.md, "HTTP
// and the web page"): the Connect protocol, messages in the proto3 JSON
// mapping. Everything goes to this page's own origin (the CSP allows no other).

const TOKEN_KEY = "easel-token";

export function token() { return sessionStorage.getItem(TOKEN_KEY) || ""; }
export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value);
  else sessionStorage.removeItem(TOKEN_KEY);
}

// A call's failure: `code` is the Connect code ("invalid_argument",
// "unauthenticated", "resource_exhausted", ...; "unavailable" when the server
// cannot be reached, "aborted" when the caller stopped it), `message` the
// server's words (they start with the request field at fault).
export class ApiError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "ApiError";
    this.code = code;
  }
}

function headers(contentType) {
  const out = { "Content-Type": contentType };
  const t = token();
  if (t) out.Authorization = "Bearer " + t;
  return out;
}

async function post(path, body, contentType, signal) {
  try {
    return await fetch(path, { method: "POST", headers: headers(contentType), body, signal });
  } catch (e) {
    if (e && e.name === "AbortError") throw new ApiError("aborted", "stopped");
    throw new ApiError("unavailable", `the server cannot be reached (${e.message || e})`);
  }
}

async function errorOf(response) {
  let body = null;
  try { body = await response.json(); } catch (e) { /* not JSON: a proxy's page */ }
  return new ApiError((body && body.code) || `http_${response.status}`,
                      (body && body.message) || response.statusText || `HTTP ${response.status}`);
}

// One unary call: the response message as JSON (camelCase field names).
export async function call(service, method, request, { signal } = {}) {
  const response = await post(`/easel.v1.${service}/${method}`, JSON.stringify(request || {}),
                              "application/json", signal);
  if (!response.ok) throw await errorOf(response);
  try {
    return await response.json();
  } catch (e) {
    if (e && e.name === "AbortError") throw new ApiError("aborted", "stopped");
    throw e;
  }
}

// A read that may be asked again (ReadPosition, LegalActions: they change nothing on the
// server), asked again after a failure that says nothing of the request: the server was not
// reached, was busy or out of time. A person editing a table on a phone's connection should not
// be left with the answers of an older text over one dropped call. `live()` false stops the
// retries (a newer text is being read); the last failure is thrown.
const TRANSIENT = new Set(["unavailable", "resource_exhausted", "deadline_exceeded",
                           "http_502", "http_503", "http_504"]);
const RETRY_MS = [250, 1000, 3000];

export async function callAgainOnFailure(service, method, request, live = () => true) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(service, method, request);
    } catch (e) {
      if (!TRANSIENT.has(e.code) || attempt >= RETRY_MS.length || !live()) throw e;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[attempt]));
      if (!live()) throw e;
    }
  }
}

// One server-streaming call: onMessage(json) for each message as it comes;
// resolves at the end-of-stream frame, throws ApiError on an error frame.
// Abort `signal` to stop (the server stops the search at once).
export async function stream(service, method, request, onMessage, { signal } = {}) {
  const body = new TextEncoder().encode(JSON.stringify(request || {}));
  const framed = new Uint8Array(5 + body.length);
  new DataView(framed.buffer).setUint32(1, body.length);
  framed.set(body, 5);
  const response = await post(`/easel.v1.${service}/${method}`, framed,
                              "application/connect+json", signal);
  if (!response.ok) throw await errorOf(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = new Uint8Array(0);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new ApiError("unavailable", "the stream ended without its end frame");
      const joined = new Uint8Array(buffer.length + value.length);
      joined.set(buffer);
      joined.set(value, buffer.length);
      buffer = joined;
      while (buffer.length >= 5) {
        const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
        const flags = view.getUint8(0);
        const length = view.getUint32(1);
        if (buffer.length < 5 + length) break;
        const json = JSON.parse(decoder.decode(buffer.subarray(5, 5 + length)) || "{}");
        buffer = buffer.slice(5 + length);
        if (flags & 2) {                      // the end-of-stream frame
          if (json.error) throw new ApiError(json.error.code || "unknown",
                                             json.error.message || "the stream failed");
          return;
        }
        onMessage(json);
      }
    }
  } catch (e) {
    if (e && e.name === "AbortError") throw new ApiError("aborted", "stopped");
    throw e;
  } finally {
    try { reader.releaseLock(); } catch (e) { /* already released */ }
  }
}

// An error as a person reads it: what failed and why.
export function describe(error) {
  if (!error) return "";
  if (error instanceof ApiError) {
    const what = {
      unauthenticated: "This server wants a bearer token (enter it above).",
      resource_exhausted: "The server is busy: ",
      unavailable: "No answer: ",
      deadline_exceeded: "Out of time: ",
    }[error.code];
    if (error.code === "unauthenticated") return what;
    return (what || "") + error.message;
  }
  return String(error.message || error);
}
