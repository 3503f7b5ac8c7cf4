// What a crash path's caller does over HTTP against the served build: a person with a verified phone, JSON calls.
// The server's url changes on every restart, so each call takes the server and reads its url then.

/** Reads the body in full (the local proxy drops a connection left with an unread body) and throws on non-2xx. */
export async function ok(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

export async function call(server, path, { method = "GET", cookie, json, body, headers = {} } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(`${server.url}${path}`, {
        method,
        headers: {
          origin: server.url,
          ...(json !== undefined ? { "content-type": "application/json" } : {}),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body: json !== undefined ? JSON.stringify(json) : body,
      });
    } catch (e) {
      // wrangler's local proxy can close a kept-alive connection just as the next request goes out on it (undici:
      // "other side closed", more often on a loaded machine): sent again on a new connection. Every call here may be
      // repeated (an SOS is idempotent by its clientRequestId). A server that is down stays down and still fails.
      if (attempt < 3 && e?.cause?.code === "UND_ERR_SOCKET") continue;
      throw e;
    }
  }
}

let phoneSeq = 0;
/** A person who started anonymously and verified a fresh phone with the code from the dev outbox. */
export async function verifiedPerson(server) {
  const started = await call(server, "/api/auth/anonymous", { method: "POST" });
  let cookie = started.headers.getSetCookie()[0].split(";")[0];
  const { user } = await ok(started, "anonymous start");
  const local = `0817${String((process.pid % 1000) * 1000 + phoneSeq++).padStart(7, "0")}`;
  const e164 = `+234${local.slice(1)}`;
  await ok(await call(server, "/api/auth/register", { method: "POST", cookie, json: { phoneNumber: local } }), "register");
  const outbox = await ok(await call(server, "/api/dev/outbox?limit=20"), "outbox");
  const code = outbox.messages.find((m) => m.to === e164)?.body.match(/\b(\d{6})\b/)?.[1];
  const verified = await call(server, "/api/auth/verify", { method: "POST", cookie, json: { phoneNumber: local, code } });
  cookie = verified.headers.getSetCookie()[0]?.split(";")[0] ?? cookie;
  await ok(verified, "verify");
  return { id: user.id, cookie, phone: e164 };
}
