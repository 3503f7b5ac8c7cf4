// Roles and the staff desk through the real Worker: guards for anonymous, user, staff and admin; every action audited.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { adminSession, anonymousSession, call, verifiedSession } from "../../tests/workers/helpers";

const verifiedUser = (nickname = "Ada") => verifiedSession("0806", nickname);

/** An admin, made by ADMIN_PHONES at verification (tested in workers/identity). */
const adminUser = adminSession;

async function auditOf(target: string, action: string) {
  const row = await env.DB.prepare(
    "select actor_id, detail, created_at from audit_log where target = ? and action = ? order by created_at desc limit 1",
  )
    .bind(target, action)
    .first<{ actor_id: string; detail: string; created_at: number }>();
  return row ? { ...row, detail: JSON.parse(row.detail) } : null;
}

describe("roles: staff run the desk, admins run everything", () => {
  it("guards answer 401 without a session, 403 to anonymous and ordinary people", async () => {
    const person = await verifiedUser();
    const anon = await anonymousSession();
    expect((await call("/api/admin/people?q=Ada")).status).toBe(401);
    const refused = await call("/api/admin/people?q=Ada", { cookie: anon.cookie });
    expect(refused.status).toBe(403);
    expect((await call("/api/admin/people?q=Ada", { cookie: person.cookie })).status).toBe(403);
    expect(await (await call("/api/support/tickets", { cookie: person.cookie })).json()).toEqual({
      error: "Staff access required",
      code: "staff_required",
    });
    expect((await call(`/api/admin/people/${person.id}/role`, { method: "POST", json: { role: "staff" } })).status).toBe(401);
    expect(
      (await call(`/api/admin/people/${person.id}/role`, { method: "POST", cookie: person.cookie, json: { role: "staff" } })).status,
    ).toBe(403);
  });

  it("an admin makes a person staff (audited with before and after); staff use the desk but cannot grant roles", async () => {
    const admin = await adminUser();
    const helper = await verifiedUser("Helper");
    const other = await verifiedUser("Chidi");
    const bad = await call(`/api/admin/people/${helper.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "admin" } });
    expect(bad.status).toBe(400);
    const made = await call(`/api/admin/people/${helper.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    expect(made.status).toBe(200);
    expect((await (await call("/api/me", { cookie: helper.cookie })).json<{ user: { role: string } }>()).user.role).toBe("staff");
    const log = await auditOf(helper.id, "admin.role_changed");
    expect(log).toMatchObject({ actor_id: admin.id, detail: { before: { role: "user" }, after: { role: "staff" } } });
    expect(log?.created_at).toBeGreaterThan(0);

    expect((await call("/api/support/tickets", { cookie: helper.cookie })).status).toBe(200);
    const found = await call(`/api/admin/people?q=${encodeURIComponent(other.local)}`, { cookie: helper.cookie });
    expect(found.status).toBe(200);
    const { people } = await found.json<{ people: Record<string, unknown>[] }>();
    expect(people).toEqual([
      expect.objectContaining({
        id: other.id,
        nickname: "Chidi",
        phone: other.phone,
        tier: "free",
        verified: true,
        sessions: 1,
        openSos: 0,
      }),
    ]);
    const byNick = await (await call("/api/admin/people?q=chid", { cookie: helper.cookie })).json<{ people: { id: string }[] }>();
    expect(byNick.people.map((p) => p.id)).toContain(other.id);

    const staffTries = await call(`/api/admin/people/${other.id}/role`, { method: "POST", cookie: helper.cookie, json: { role: "staff" } });
    expect(staffTries.status).toBe(403);
    expect(await staffTries.json()).toEqual({ error: "Admin access required", code: "admin_required" });
    expect(
      (await call(`/api/admin/people/${admin.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "user" } })).status,
    ).toBe(409);

    const back = await call(`/api/admin/people/${helper.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "user" } });
    expect(back.status).toBe(200);
    expect((await call("/api/support/tickets", { cookie: helper.cookie })).status).toBe(403);
    expect(await auditOf(helper.id, "admin.role_changed")).toMatchObject({
      detail: { before: { role: "staff" }, after: { role: "user" } },
    });
  });

  it("staff grant a complimentary tier by phone and end it early; the audit holds the tier before and after", async () => {
    const admin = await adminUser();
    const helper = await verifiedUser("Helper");
    await call(`/api/admin/people/${helper.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    const person = await verifiedUser();
    const endsAt = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
    const res = await call("/api/admin/subscriptions/complimentary", {
      method: "POST",
      cookie: helper.cookie,
      json: { userId: person.id, tier: "premium", endsAt, reason: "Paid at the agent" },
    });
    expect(res.status).toBe(201);
    expect(await auditOf(person.id, "billing.complimentary_granted")).toMatchObject({
      actor_id: helper.id,
      detail: { before: { tier: "free" }, after: { tier: "premium", endsAt } },
    });
    const me = async () => (await (await call("/api/me", { cookie: person.cookie })).json<{ user: { tier: string } }>()).user.tier;
    expect(await me()).toBe("premium");
    const end = `/api/admin/subscriptions/complimentary/${person.id}/end`;
    expect((await call(end, { method: "POST", cookie: person.cookie })).status).toBe(403);
    const ended = await call(end, { method: "POST", cookie: helper.cookie });
    expect(ended.status).toBe(200);
    expect(await me()).toBe("free");
    expect(await auditOf(person.id, "billing.complimentary_ended")).toMatchObject({
      actor_id: helper.id,
      detail: { before: { tier: "premium" }, after: { tier: "free" } },
    });
    expect((await call(end, { method: "POST", cookie: helper.cookie })).status).toBe(409);
  });
});

describe("support tickets at the desk", () => {
  it("staff reply: the person reads it in the notification centre and by WhatsApp (dev outbox); close ends it, audited", async () => {
    const admin = await adminUser();
    const helper = await verifiedUser("Helper");
    await call(`/api/admin/people/${helper.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    const person = await verifiedUser("Ngozi");
    // Left by phone only through the support bot's call-back form: matched to the account owning the phone.
    await env.DB.prepare(
      "insert into support_tickets (id, user_id, phone, message, category) values ('t-1', null, ?, 'Call me back', 'technical')",
    )
      .bind(person.phone)
      .run();
    const reply = { message: "We fixed your account, try again now." };
    expect((await call("/api/support/tickets/t-1/reply", { method: "POST", cookie: person.cookie, json: reply })).status).toBe(403);
    expect((await call("/api/support/tickets/nope/reply", { method: "POST", cookie: helper.cookie, json: reply })).status).toBe(404);
    expect((await call("/api/support/tickets/t-1/reply", { method: "POST", cookie: helper.cookie, json: { message: " " } })).status).toBe(
      400,
    );

    const res = await call("/api/support/tickets/t-1/reply", { method: "POST", cookie: helper.cookie, json: reply });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "open", delivered: { notification: true, whatsapp: true } });
    const { notifications } = await (await call("/api/notifications", { cookie: person.cookie })).json<{
      notifications: { title: string; content: string }[];
    }>();
    expect(notifications).toContainEqual(expect.objectContaining({ title: "LinkUp support replied", content: reply.message }));
    const outbox = await env.DB.prepare(
      'select channel, body from outbound_messages where "to" = ? order by created_at desc, rowid desc limit 1',
    )
      .bind(person.phone)
      .first<{ channel: string; body: string }>();
    expect(outbox).toEqual({ channel: "whatsapp", body: `LinkUp support: ${reply.message}` });
    expect(await auditOf("t-1", "support.ticket_replied")).toMatchObject({ actor_id: helper.id, detail: { reply: reply.message } });

    const closed = await call("/api/support/tickets/t-1/close", { method: "POST", cookie: helper.cookie });
    expect(await closed.json()).toEqual({ id: "t-1", status: "closed" });
    const queue = await (await call("/api/support/tickets", { cookie: helper.cookie })).json<{ tickets: { id: string }[] }>();
    expect(queue.tickets.map((t) => t.id)).not.toContain("t-1");
    expect(await auditOf("t-1", "support.ticket_closed")).toMatchObject({
      detail: { before: { status: "open" }, after: { status: "closed" } },
    });
    expect((await call("/api/support/tickets/t-1/reply", { method: "POST", cookie: helper.cookie, json: reply })).status).toBe(409);
  });
});

describe("SOS at the desk", () => {
  it("staff resolve someone's SOS (audited); another person may not", async () => {
    const admin = await adminUser();
    const helper = await verifiedUser("Helper");
    await call(`/api/admin/people/${helper.id}/role`, { method: "POST", cookie: admin.cookie, json: { role: "staff" } });
    const sender = await anonymousSession();
    const other = await verifiedUser();
    const sent = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      json: { message: "Flooding on our street", emergencyType: "other", clientRequestId: crypto.randomUUID() },
    });
    expect(sent.status).toBe(201);
    const { id } = await sent.json<{ id: string }>();
    expect((await call(`/api/emergency/${id}/resolve`, { method: "POST", cookie: other.cookie })).status).toBe(403);
    expect((await call(`/api/emergency/${id}/resolve`, { method: "POST", cookie: helper.cookie })).status).toBe(200);
    expect(await auditOf(id, "sos.resolved")).toMatchObject({
      actor_id: helper.id,
      detail: { before: { status: "active" }, after: { status: "resolved" } },
    });
  });
});
