// Our WebCrypto signature against Twilio's own helper (the npm package `twilio`), in Node.
import { getExpectedTwilioSignature, validateRequest } from "twilio/lib/webhooks/webhooks";
import { describe, expect, it } from "vitest";
import { paramsFromForm, twilioSignature, validTwilioSignature } from "./whatsapp-signature";

const TOKEN = "12345678901234567890123456789012";
const URL = "https://linkup.example/webhooks/whatsapp";
const form = new URLSearchParams({
  SmsMessageSid: "SM1234567890abcdef",
  NumMedia: "0",
  ProfileName: "Adaeze Ọkafọr",
  WaId: "2348031234567",
  Body: "@ai translate good morning to hausa & more 'quotes' ✓",
  To: "whatsapp:+14155238886",
  From: "whatsapp:+2348031234567",
  Latitude: "6.6018",
  Longitude: "3.3515",
  MessageSid: "SM1234567890abcdef",
  AccountSid: "AC00000000000000000000000000000000",
});

describe("X-Twilio-Signature", () => {
  it("matches Twilio's getExpectedTwilioSignature byte for byte", async () => {
    const params = paramsFromForm(form);
    const theirs = getExpectedTwilioSignature(TOKEN, URL, params as Record<string, string>);
    expect(await twilioSignature(TOKEN, URL, params)).toBe(theirs);
  });

  it("accepts what Twilio's helper signs, also for repeated fields and a URL with a query", async () => {
    const multi = new URLSearchParams("Body=hi&MediaUrl0=b&MediaUrl0=a&From=whatsapp%3A%2B2348000000000");
    const url = `${URL}?secret=x&lang=ha`;
    const params = paramsFromForm(multi);
    const theirs = getExpectedTwilioSignature(TOKEN, url, params as Record<string, string>);
    expect(await validTwilioSignature(TOKEN, theirs, [url], params)).toBe(true);
    expect(validateRequest(TOKEN, await twilioSignature(TOKEN, url, params), url, params as Record<string, string>)).toBe(true);
  });

  it("accepts a signature made over the URL with its default port, like Twilio's validator", async () => {
    const params = paramsFromForm(form);
    const withPort = getExpectedTwilioSignature(TOKEN, "https://linkup.example:443/webhooks/whatsapp", params as Record<string, string>);
    expect(await validTwilioSignature(TOKEN, withPort, [URL], params)).toBe(true);
  });

  it("refuses a tampered body, another URL, another token and a missing signature", async () => {
    const params = paramsFromForm(form);
    const good = getExpectedTwilioSignature(TOKEN, URL, params as Record<string, string>);
    const tampered = paramsFromForm(new URLSearchParams({ ...Object.fromEntries(form), Body: "SOS" }));
    expect(validateRequest(TOKEN, good, URL, tampered as Record<string, string>)).toBe(false);
    expect(await validTwilioSignature(TOKEN, good, [URL], tampered)).toBe(false);
    expect(await validTwilioSignature(TOKEN, good, ["https://evil.example/webhooks/whatsapp"], params)).toBe(false);
    expect(await validTwilioSignature("another-token-000000000000000000", good, [URL], params)).toBe(false);
    expect(await validTwilioSignature(TOKEN, "", [URL], params)).toBe(false);
    expect(await validTwilioSignature("", good, [URL], params)).toBe(false);
  });
});
