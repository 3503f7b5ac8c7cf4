// Free Premium does not repeat (issue 27 finding 8, docs/decisions/049-abuse-bans-claims-and-names.md): the trial
// and achievement rewards are once per phone number ever, deleting the account included, and "SOS helped" counts
// only between verified people who are not the same person by phone, browser or address.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RewardsAnswer } from "../../core/rewards";
import { call, latestCode } from "../../tests/workers/helpers";

let seq = 0;
const freshPhone = () => `0814${String(4_000_000 + seq++ + Math.floor(Math.random() * 1000) * 1000).padStart(7, "0")}`;
const cookiePart = (setCookie: string) => setCookie.split(";")[0];

/** Signs in with the phone through the real flow from a browser (its device cookie kept, or a new browser). */
async function signIn(local: string, browser: { device?: string; ip?: string } = {}) {
  const headers = browser.ip ? { "cf-connecting-ip": browser.ip } : undefined;
  const started = await call("/api/auth/anonymous", { method: "POST", cookie: browser.device, headers });
  expect(started.status).toBe(201);
  const set = started.headers.getSetCookie();
  const session = cookiePart(set[0]);
  const device = browser.device ?? cookiePart(set.find((c) => c.startsWith("linkup_device=")) ?? "");
  const cookie = `${session}; ${device}`;
  const reg = await call("/api/auth/register", { method: "POST", cookie, headers, json: { phoneNumber: local } });
  expect(reg.status, await reg.clone().text()).toBe(200);
  const code = await latestCode(local);
  const verified = await call("/api/auth/verify", { method: "POST", cookie, headers, json: { phoneNumber: local, code } });
  expect(verified.status).toBe(200);
  const { user } = await verified.json<{ user: { id: string } }>();
  return { cookie: `${cookiePart(verified.headers.getSetCookie()[0])}; ${device}`, device, id: user.id };
}

async function deleteAccount(cookie: string) {
  const res = await call("/api/me", { method: "DELETE", cookie, json: { confirm: "DELETE MY ACCOUNT" } });
  expect(res.status).toBe(200);
}

const tierOf = async (cookie: string) => (await (await call("/api/me", { cookie })).json<{ user: { tier: string } }>()).user.tier;
const rewards = async (cookie: string) => (await (await call("/api/rewards", { cookie })).json()) as RewardsAnswer;

describe("free Premium once per phone", () => {
  it("the trial is refused to the same phone after the account is deleted and made again", async () => {
    const phone = freshPhone();
    const first = await signIn(phone);
    expect((await call("/api/subscription/trial", { method: "POST", cookie: first.cookie })).status).toBe(200);
    await deleteAccount(first.cookie);

    const again = await signIn(phone);
    expect(again.id).not.toBe(first.id);
    const status = await (await call("/api/subscription/status", { cookie: again.cookie })).json<{ trialAvailable: boolean }>();
    expect(status.trialAvailable).toBe(false);
    const refused = await call("/api/subscription/trial", { method: "POST", cookie: again.cookie });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: "The free trial has already been used for this phone number", code: "trial_used" });
    expect(await tierOf(again.cookie)).toBe("free");
    // The claim names no number: only its HMAC is kept.
    const kept = await env.DB.prepare("select phone_hash from premium_claims where kind = 'trial'").all<{ phone_hash: string }>();
    expect(JSON.stringify(kept.results)).not.toContain(phone.slice(1));
  });

  it("20 parallel trial requests from one person start one trial", async () => {
    const person = await signIn(freshPhone());
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call("/api/subscription/trial", { method: "POST", cookie: person.cookie }).then((r) => r.status)),
    );
    expect(answers.filter((s) => s === 200)).toHaveLength(1);
    expect(answers.filter((s) => s !== 200).every((s) => s === 409)).toBe(true);
    const trials = await env.DB.prepare("select count(*) as n from subscriptions where user_id = ? and source = 'trial'")
      .bind(person.id)
      .first<{ n: number }>();
    expect(trials?.n).toBe(1);
  });

  it("the 2-day reward for joining an area room is granted once per phone, not again after deleting the account", async () => {
    const phone = freshPhone();
    const join = async (cookie: string) => {
      await call("/api/me/location", { method: "PUT", cookie, json: { latitude: 7.38, longitude: 3.93 } });
      expect((await call("/api/rooms/nearby/join", { method: "POST", cookie })).ok).toBe(true);
      return rewards(cookie);
    };
    const first = await signIn(phone);
    expect((await join(first.cookie)).achievements.find((a) => a.id === "first-contact")?.unlocked).toBe(true);
    await rewards(first.cookie);
    expect(await tierOf(first.cookie)).toBe("premium");
    await deleteAccount(first.cookie);

    const again = await signIn(phone);
    expect((await join(again.cookie)).achievements.find((a) => a.id === "first-contact")?.unlocked).toBe(true);
    await rewards(again.cookie);
    expect(await tierOf(again.cookie)).toBe("free");
    const grants = await env.DB.prepare("select count(*) as n from subscriptions where user_id = ?").bind(again.id).first<{ n: number }>();
    expect(grants?.n).toBe(0);
  });
});

describe("SOS helped only between different verified people", () => {
  let spot = 0;
  /** An SOS at a fresh spot from `sender`, answered by `helper`, then resolved by the sender: the helper's SOS count. */
  async function helpedCount(
    sender: { cookie: string },
    helper: { cookie: string },
    ips: { sender?: string; helper?: string } = {},
  ): Promise<number> {
    spot++;
    const here = { latitude: 11 + spot / 100 + Math.random() / 1000, longitude: 8.5 };
    for (const cookie of [sender.cookie, helper.cookie]) {
      expect((await call("/api/me/location", { method: "PUT", cookie, json: here })).status).toBe(200);
    }
    const sent = await call("/api/emergency/broadcast", {
      method: "POST",
      cookie: sender.cookie,
      headers: ips.sender ? { "cf-connecting-ip": ips.sender } : undefined,
      json: {
        message: "Armed robbers on our street",
        emergencyType: "security",
        location: here,
        clientRequestId: `h-${spot}-${Date.now()}`,
      },
    });
    expect(sent.status).toBe(201);
    const { id } = await sent.json<{ id: string }>();
    const headers = ips.helper ? { "cf-connecting-ip": ips.helper } : undefined;
    expect((await call(`/api/emergency/${id}/respond`, { method: "POST", cookie: helper.cookie, headers })).status).toBe(200);
    expect((await call(`/api/emergency/${id}/resolve`, { method: "POST", cookie: sender.cookie })).status).toBe(200);
    return (await rewards(helper.cookie)).emergenciesHelped;
  }

  it("counts between two verified people on their own browsers and addresses", async () => {
    const sender = await signIn(freshPhone());
    const helper = await signIn(freshPhone());
    expect(await helpedCount(sender, helper, { sender: "203.0.113.10", helper: "198.51.100.20" })).toBe(1);
  });

  it("does not count an SOS from an anonymous identity, however it is answered and resolved", async () => {
    const started = await call("/api/auth/anonymous", { method: "POST" });
    const anonymous = { cookie: cookiePart(started.headers.getSetCookie()[0]) };
    const helper = await signIn(freshPhone());
    expect(await helpedCount(anonymous, helper)).toBe(0);
  });

  it("does not count an answer from a second account signed in from the sender's browser", async () => {
    const sender = await signIn(freshPhone());
    const twin = await signIn(freshPhone(), { device: sender.device });
    expect(await helpedCount(sender, twin)).toBe(0);
  });

  it("does not count an answer from the address the SOS was sent from", async () => {
    const sender = await signIn(freshPhone());
    const helper = await signIn(freshPhone());
    expect(await helpedCount(sender, helper, { sender: "192.0.2.44", helper: "192.0.2.44" })).toBe(0);
  });

  it("Emergency Hero's 30 days are out of reach of staged SOS between one person's identities", async () => {
    const sender = await signIn(freshPhone());
    const twin = await signIn(freshPhone(), { device: sender.device });
    for (let i = 0; i < 3; i++) await helpedCount(sender, twin);
    const hero = (await rewards(twin.cookie)).achievements.find((a) => a.id === "emergency-hero");
    expect(hero).toMatchObject({ progress: 0, unlocked: false });
    expect(await tierOf(twin.cookie)).toBe("free");
  });
});
