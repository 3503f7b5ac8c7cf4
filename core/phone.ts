/**
 * Phone normalisation of spec part 2 §5, shared by every channel: keep the digits; a leading 0 becomes +234
 * and the rest; a 10-digit number gets +234; otherwise a + is added. Returns null when no digits remain.
 */
export function normalizePhone(input: string): string | null {
  const digits = input.replace(/\D/g, "");
  if (!digits) return null;
  if (digits.startsWith("0")) return `+234${digits.slice(1)}`;
  if (digits.length === 10) return `+234${digits}`;
  return `+${digits}`;
}

/** 'User ' plus the last 4 characters of the phone as entered: the chat join form's nickname rule. */
export function nicknameFromPhone(phone: string): string {
  return `User ${phone.trim().slice(-4)}`;
}
