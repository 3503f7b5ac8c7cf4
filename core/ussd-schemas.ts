// The Africa's Talking USSD callback (docs/architecture.md §7): a form post answered with text/plain 'CON …' or 'END …'.
import { z } from "zod";

export const UssdRequestSchema = z.object({
  sessionId: z.string().trim().min(1, "sessionId is required").max(128),
  serviceCode: z.string().trim().max(40).default(""),
  phoneNumber: z
    .string()
    .trim()
    .regex(/^\+?\d{7,15}$/, "phoneNumber must be a phone number"),
  networkCode: z.string().trim().max(20).optional(),
  // Every answer of the session so far, joined by '*'; '' on the first request.
  text: z.string().max(2000).default(""),
});
export type UssdRequest = z.infer<typeof UssdRequestSchema>;
