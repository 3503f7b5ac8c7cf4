// POST /webhooks/stripe and /webhooks/paystack: the raw body goes to the handler untouched (the signature covers its exact bytes).
import { Hono } from "hono";
import { createDb } from "../../db";
import type { AppBindings } from "../env";
import { notFound, onError } from "../errors";
import { handlePaystackWebhook, handleStripeWebhook } from "./events";

export const stripeWebhook = new Hono<AppBindings>().post("/", async (c) => {
  const outcome = await handleStripeWebhook(c.env, createDb(c.env), await c.req.text(), c.req.header("stripe-signature") ?? null);
  return c.json(outcome.body, outcome.status);
});
stripeWebhook.onError(onError);
stripeWebhook.notFound(notFound);

export const paystackWebhook = new Hono<AppBindings>().post("/", async (c) => {
  const outcome = await handlePaystackWebhook(c.env, createDb(c.env), await c.req.text(), c.req.header("x-paystack-signature") ?? null);
  return c.json(outcome.body, outcome.status);
});
paystackWebhook.onError(onError);
paystackWebhook.notFound(notFound);
