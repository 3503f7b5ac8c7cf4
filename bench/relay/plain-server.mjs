// The baseline for bench/relay: a plain Node `ws` broadcast server doing the relay's visible work for the same
// client frames — parse each frame, give it a seq, ack the sender, send it to every other socket — with no
// validation, storage, dedupe or database. Prints its port on stdout.
import { WebSocketServer } from "ws";

const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, maxPayload: 64 * 1024 });
let seq = 0;
wss.on("connection", (ws) => {
  ws.send(JSON.stringify({ type: "hello", room: "plain", userId: "u", latestSeq: seq, encrypted: false }));
  ws.on("message", (data) => {
    let frame;
    try {
      frame = JSON.parse(data.toString());
    } catch {
      ws.send(JSON.stringify({ type: "error", code: "malformed", message: "Frame is not valid JSON" }));
      return;
    }
    if (frame.type !== "send") return;
    seq++;
    ws.send(JSON.stringify({ type: "ack", id: frame.envelope.id, status: "sent", seq }));
    const out = JSON.stringify({ type: "envelope", seq, envelope: frame.envelope });
    for (const other of wss.clients) if (other !== ws && other.readyState === 1) other.send(out);
  });
});
wss.on("listening", () => console.log(String(wss.address().port)));
