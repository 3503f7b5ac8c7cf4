// The API answers `{ error }` in English (the product's wording); screens show the person's language. The English text is
// the code: each known message maps to its catalog key, and an unknown one is shown as it came.
import { AI_LIMIT_MESSAGES, VOICE_PREMIUM_MESSAGE } from "../../../core/ai-limits";
import type { MessageKey } from "../../../core/i18n/en";
import { RESERVED_NAME_MESSAGE } from "../../../core/names";
import { PRICE_LIMIT_MESSAGE, PRICE_REPORT_ERRORS } from "../../../core/price-reports";
import type { Vars } from "../../../core/i18n/translate";

const KNOWN: Record<string, MessageKey> = {
  "Please describe the emergency": "api.describeEmergency",
  "The SOS could not be sent": "api.sosNotSent",
  "Too many SOS from you in the last hour. If you are in danger, call 112 or 199.": "api.tooManySos",
  "Sign in required": "api.signInRequired",
  "This feature requires phone verification": "api.verificationRequired",
  "Internal server error": "api.serverError",
  "You are not a member of this room": "api.notMember",
  "Room not found": "api.roomNotFound",
  // A team room's members follow its team (docs/decisions/067-enterprise-teams.md).
  "Team rooms follow the team: invite and remove people on the team page": "team.err.teamRoom",
  "Something went wrong": "error.somethingWrong",
  "LinkUp does not know that town yet. Pick one from the list, or share your location.": "api.unknownTown",
  "Share your location or set your town in Settings to join your area room.": "api.noArea",
  [RESERVED_NAME_MESSAGE]: "api.reservedName",
  // Files and calls (core/files.ts FILE_TEXTS, core/calls.ts CALL_TEXTS), and the call's own outcomes
  "Premium Feature": "files.premiumTitle",
  "Verify your phone number to share files.": "api.fileVerify",
  "Verify your phone number to download this file.": "api.fileDownloadVerify",
  "Files can be at most 100 MB.": "api.fileTooLarge",
  "Files over 25 MB are a Premium feature. Upgrade to Premium for files up to 100 MB — try it free for 7 days.":
    "api.fileCommunityTooLarge",
  "You've used your 10 free file transfers for this month. Upgrade to Premium for 50 a month — try it free for 7 days.":
    "api.fileCommunityMonthFull",
  "This file was not sent (yet).": "api.fileNotSent",
  "Voice calling requires phone verification. Verify your phone in Settings.": "api.callVerify",
  "Voice calling requires phone verification: this person has not verified a phone yet.": "api.callPeerNotVerified",
  "A call is already on in this chat.": "api.callBusy",
  "This call is no longer ringing.": "api.callNotRinging",
  "Calls are only between the two people of a direct chat.": "api.callDirectOnly",
  "Call ended": "calls.ended",
  "Call declined": "calls.declined",
  "No answer": "calls.noAnswer",
  "Missed call": "calls.missed",
  "Call could not connect": "calls.couldNotConnect",
  "Answered on another device": "calls.answeredElsewhere",
  "Not connected: calls need a connection to this chat.": "calls.needsConnection",
  "Not connected.": "calls.notConnected",
  "Call failed": "calls.failed",
  "LinkUp needs your microphone for calls. Allow it in the browser's site settings.": "calls.micNeeded",
  "LinkUp found no microphone it can use on this phone. Connect one or close the app using it, then call again.": "calls.noMicrophone",
  // Security (workers/identity two-factor.ts and passkeys.ts, web/app/features/security/security.server.ts)
  "Invalid code. Please try again.": "sec.err.invalidCode",
  "Too many wrong codes. Please try again later.": "sec.err.locked",
  "Two-factor authentication is not set up": "sec.err.notSetUp",
  "Two-factor authentication is already on": "sec.err.alreadyOn",
  "Two-factor authentication is not on": "sec.err.notOn",
  "Enter the code": "sec.err.enterCode",
  "That passkey could not be verified. Please try again.": "sec.err.passkeyFailed",
  "That passkey could not be verified.": "sec.passkeyNotVerified",
  "Start again: the passkey request has expired": "sec.err.passkeyExpired",
  "No such passkey": "sec.err.noSuchPasskey",
  "This account has no passkey": "sec.err.noPasskey",
  "Cancel your subscription before deleting your account": "sec.err.cancelFirst",
  "Could not sign that session out. Please try again.": "sec.err.signOutOne",
  "Could not sign the other sessions out. Please try again.": "sec.err.signOutOthers",
  "Panic mode failed. Please try again.": "sec.err.panic",
  "Could not remove that passkey. Please try again.": "sec.err.removePasskey",
  "Could not delete your account. Please try again.": "sec.err.delete",
  "Could not save. Please try again.": "sec.err.save",
  "Could not start two-factor set-up. Please try again.": "sec.err.setup",
  // The chat's join form and the payment screens (web/app/routes/chat.tsx, features/billing)
  "Could not connect. Please try again.": "joinMesh.err.connect",
  "Could not save your town.": "joinMesh.err.town",
  "Could not save your profile.": "joinMesh.err.profile",
  Error: "pay.initErrorTitle",
  "Failed to initialize payment. Please try again.": "pay.initErrorBody",
  "Trial not started": "subs.trialNotStarted",
  "Your card was declined.": "pay.declined",
  // The assistant's refusals and the voice recorder's (core/ai-limits.ts, features/assistant/use-voice-message.ts)
  [AI_LIMIT_MESSAGES.aiCommands]: "offer.aiLimit",
  [AI_LIMIT_MESSAGES.translations]: "offer.translateLimit",
  [VOICE_PREMIUM_MESSAGE]: "offer.voicePremium",
  "Sign in to send voice messages.": "voice.signIn",
  "This browser cannot record audio.": "files.cannotRecord",
  "Microphone access was refused. Allow the microphone for this site to record.": "files.micRefused",
  "We could not reach LinkUp to find your area room. Your messages wait in the outbox.": "area.unreachable",
  "Location permission was refused.": "sos.locationRefused",
  "Your location could not be found.": "sos.locationNotFound",
  "Translation failed. Please try again.": "api.translationFailed",
  "Could not check the group's members, so this message waits": "msg.membersUnchecked",
  // /ai-features' own refusals (web/app/routes/ai-features.tsx)
  "Text required - Please enter text to translate": "aif.err.text",
  "Message required - Please enter a message to generate smart replies": "aif.err.smart",
  "Message required - Please type a question or command": "aif.err.question",
  "Message required - Please describe the emergency": "aif.err.emergency",
  "Could not start your session. Please try again.": "aif.err.start",
  "Premium Feature - Smart replies require phone verification. Verify your phone in Settings.": "aif.err.smartVerify",
  "Smart replies are not available right now. Please try again.": "aif.err.smartDown",
  // /market-prices (core/price-reports.ts)
  [PRICE_LIMIT_MESSAGE]: "mp.err.tooMany",
  ...Object.fromEntries(PRICE_REPORT_ERRORS.item.map((m) => [m, "mp.err.item" as const])),
  ...Object.fromEntries(PRICE_REPORT_ERRORS.unit.map((m) => [m, "mp.err.unit" as const])),
  ...Object.fromEntries(PRICE_REPORT_ERRORS.price.map((m) => [m, "mp.err.price" as const])),
  ...Object.fromEntries(PRICE_REPORT_ERRORS.market.map((m) => [m, "mp.err.market" as const])),
};

const TOO_MANY = /^Too many /;
const MONTH_FULL = /^You've used your (\d+) file transfers for this month\. They renew on the 1st\.$/;
const INVALID = /^Invalid request: (?:[\w.]+: )?(.*)$/;
const TRIES_LEFT = /^(\d+) tr(?:y|ies) left\.$/;
const MAX_PASSKEYS = /^You can keep at most (\d+) passkeys$/;
const TYPE_TO_CONFIRM = /^Type (.+) to confirm$/;
const VOICE_MONTH_FULL = /^You've used your (\d+) voice messages for this month\.$/;
const PREMIUM_KEYWORD = /^(\w+) is a Premium feature\. Upgrade to Premium to unlock it — try it free for (\d+) days\.$/;

export function translateApiError(message: string, t: (key: MessageKey, vars?: Vars) => string): string {
  const known = KNOWN[message];
  if (known) return t(known);
  if (TOO_MANY.test(message)) return t("api.tooManyRequests");
  const monthFull = MONTH_FULL.exec(message);
  if (monthFull) return t("api.fileMonthFull", { limit: monthFull[1] });
  const tries = TRIES_LEFT.exec(message);
  if (tries) return t("sec.triesLeft", { count: Number(tries[1]) });
  const maxPasskeys = MAX_PASSKEYS.exec(message);
  if (maxPasskeys) return t("sec.err.tooManyPasskeys", { max: maxPasskeys[1] });
  const typeToConfirm = TYPE_TO_CONFIRM.exec(message);
  if (typeToConfirm) return t("sec.typeToConfirm", { phrase: typeToConfirm[1] });
  const voiceFull = VOICE_MONTH_FULL.exec(message);
  if (voiceFull) return t("voice.monthFull", { limit: voiceFull[1] });
  const keyword = PREMIUM_KEYWORD.exec(message);
  if (keyword) return t("offer.keyword", { feature: keyword[1], days: keyword[2] });
  // Validation errors name a field, then the schema's message: the message alone is what the person needs.
  const invalid = INVALID.exec(message);
  if (invalid) {
    const inner = KNOWN[invalid[1]];
    return inner ? t(inner) : t("api.invalidRequest", { detail: invalid[1] });
  }
  return message;
}
