// Reports of a person to the staff desk through the real Worker: validation, the per-person limit, the desk's
// queue linking to the reported person, and handling audited.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminSession, anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";
import { TOO_MANY_REPORTS } from "./reports";

interface QueueTicket {
  id: string;
  category: string;
  message: string;
  nickname: string | null;
  subjectId: string | null;
  subjectNickname: string | null;
}

const report = (cookie: string | undefined, json: unknown) => call("/api/reports", { method: "POST", cookie, json });

describe("reports", () => {
  it("a report reaches the staff queue naming the person, who is found on the desk by it; closing is audited", async () => {
    const admin = await adminSession();
    const reporter = await anonymousSession();
    const troll = await anonymousSession();
    const sent = await report(reporter.cookie, {
      userId: troll.user.id,
      reason: "harassment",
      details: "Threats in our chat",
      roomId: "dm:a:b",
    });
    expect(sent.status).toBe(201);
    const { report: filed } = await sent.json<{ report: { id: string; status: string } }>();
    expect(filed.status).toBe("open");

    const queue = await call("/api/support/tickets", { cookie: admin.cookie });
    const ticket = (await queue.json<{ tickets: QueueTicket[] }>()).tickets.find((t) => t.id === filed.id);
    expect(ticket).toMatchObject({
      category: "report",
      nickname: reporter.user.nickname,
      subjectId: troll.user.id,
      subjectNickname: troll.user.nickname,
      message: "harassment (in dm:a:b): Threats in our chat",
    });
    const found = await call(`/api/admin/people?q=${encodeURIComponent(troll.user.id)}`, { cookie: admin.cookie });
    expect((await found.json<{ people: { id: string }[] }>()).people).toEqual([expect.objectContaining({ id: troll.user.id })]);

    expect((await call(`/api/support/tickets/${filed.id}/close`, { method: "POST", cookie: admin.cookie })).status).toBe(200);
    const audit = await env.DB.prepare("select actor_id from audit_log where target = ? and action = 'support.ticket_closed'")
      .bind(filed.id)
      .first<{ actor_id: string }>();
    expect(audit?.actor_id).toBe(admin.id);
  });

  it("refuses strangers, bad input, oneself and nobody with clear JSON errors", async () => {
    const reporter = await anonymousSession();
    const other = await anonymousSession();
    expect((await report(undefined, { userId: other.user.id, reason: "spam" })).status).toBe(401);
    const badReason = await report(reporter.cookie, { userId: other.user.id, reason: "ugly" });
    expect(badReason.status).toBe(400);
    expect((await badReason.json<{ error: string }>()).error).toContain("reason");
    expect((await report(reporter.cookie, { userId: other.user.id, reason: "other", details: "x".repeat(501) })).status).toBe(400);
    const self = await report(reporter.cookie, { userId: reporter.user.id, reason: "spam" });
    expect(self.status).toBe(409);
    expect(await self.json()).toEqual({ error: "You cannot report yourself", code: "cannot_report_self" });
    expect((await report(reporter.cookie, { userId: "nobody-at-all", reason: "spam" })).status).toBe(404);
  });

  it("one person sends at most REPORTS_PER_PERSON_PER_DAY reports a day, then 429 with Retry-After", async () => {
    const reporter = await anonymousSession();
    const other = await anonymousSession();
    const limit = Number(env.REPORTS_PER_PERSON_PER_DAY);
    for (let i = 0; i < limit; i++) expect((await report(reporter.cookie, { userId: other.user.id, reason: "spam" })).status).toBe(201);
    const refused = await report(reporter.cookie, { userId: other.user.id, reason: "spam" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ error: TOO_MANY_REPORTS });
    // Someone else's reports are their own.
    expect((await report(other.cookie, { userId: reporter.user.id, reason: "spam" })).status).toBe(201);
  });
});

describe("report limits under parallel requests (docs/decisions/047-limits-taken-atomically.md)", () => {
  const tally = (statuses: number[]) => {
    const t: Record<number, number> = {};
    for (const s of statuses) t[s] = (t[s] ?? 0) + 1;
    return t;
  };

  it("100 parallel reports from one person: exactly REPORTS_PER_PERSON_PER_DAY are filed, the rest 429 with Retry-After", async () => {
    const reporter = await anonymousSession();
    const other = await anonymousSession();
    const limit = Number(env.REPORTS_PER_PERSON_PER_DAY);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => report(reporter.cookie, { userId: other.user.id, reason: "spam" })),
    );
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: limit, 429: 100 - limit });
    expect(answers.filter((a) => a.status === 429).every((a) => Number(a.headers.get("retry-after")) > 0)).toBe(true);
    const filed = await env.DB.prepare("select count(*) as n from support_tickets where user_id = ?")
      .bind(reporter.user.id)
      .first<{ n: number }>();
    expect(filed?.n).toBe(limit);
  });

  it("four anonymous identities from one address share its daily reports against one person; a verified reporter there does not", async () => {
    const target = await anonymousSession();
    const identities = await Promise.all(Array.from({ length: 4 }, () => anonymousSession()));
    const fromAddress = (cookie: string) =>
      call("/api/reports", {
        method: "POST",
        cookie,
        headers: { "cf-connecting-ip": "203.0.113.9" },
        json: { userId: target.user.id, reason: "harassment" },
      });
    const answers = await Promise.all(identities.flatMap((s) => Array.from({ length: 10 }, () => fromAddress(s.cookie))));
    const limit = Number(env.ANON_REPORTS_PER_ADDRESS_PER_DAY);
    expect(tally(answers.map((a) => a.status))).toEqual({ 201: limit, 429: 40 - limit });
    const refused = answers.find((a) => a.status === 429);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused?.json()).toMatchObject({ error: TOO_MANY_REPORTS });
    // Another address is not held up.
    const elsewhere = await call("/api/reports", {
      method: "POST",
      cookie: (await anonymousSession()).cookie,
      headers: { "cf-connecting-ip": "198.51.100.9" },
      json: { userId: target.user.id, reason: "spam" },
    });
    expect(elsewhere.status).toBe(201);
    const verified = await verifiedSession("0815");
    const byVerified = await call("/api/reports", {
      method: "POST",
      cookie: verified.cookie,
      headers: { "cf-connecting-ip": "203.0.113.9" },
      json: { userId: target.user.id, reason: "spam" },
    });
    expect(byVerified.status).toBe(201);
  });
});
