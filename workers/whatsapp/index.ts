// The Twilio WhatsApp webhook. Its behaviour arrives with the feature-phone issue; until then it says so.
import { Hono } from "hono";
import type { AppBindings } from "../env";
import { notFound, onError } from "../errors";

export const whatsapp = new Hono<AppBindings>().post("/", (c) => c.json({ error: "WhatsApp bot is not available yet" }, 501));
whatsapp.onError(onError);
whatsapp.notFound(notFound);
