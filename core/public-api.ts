// The public API (docs/product/plans-and-limits.md, the public API): which endpoints are documented, who may call them, and the OpenAPI
// document generated from the same zod schemas that validate their input. The server lets API keys reach only
// the operations listed here with `auth: "key"` or `auth: "public"` (docs/decisions/032-public-api-and-keys.md).
import { z } from "zod";
import { AiChatRequestSchema, SmartRepliesResponseSchema, SmartRepliesRequestSchema, TranslateRequestSchema } from "./ai-schemas";
import { API_DAILY_CALLS, API_DEVICES, API_PLAN_NAMES } from "./api-keys";
import { CreateSubscriptionSchema } from "./billing-schemas";
import { TIERS } from "./constants";
import { RegisterSchema, VerifySchema } from "./identity-schemas";
import { LeaderboardQuerySchema } from "./rewards";
import { ApiErrorBodySchema } from "./api-errors";
import { MarketQuerySchema } from "./schemas";
import { EmergencyBroadcastSchema } from "./sos-schemas";

export const API_CATEGORIES = ["Account", "Assistant", "Community", "Emergency", "Rewards", "Subscription"] as const;
export type ApiCategory = (typeof API_CATEGORIES)[number];

/** public: no sign-in; key: a session cookie or an API key; session: the signed-in browser only. */
export type ApiAuth = "public" | "key" | "session";

export interface ApiOperation {
  method: "get" | "post";
  path: string;
  category: ApiCategory;
  summary: string;
  auth: ApiAuth;
  body?: z.ZodType;
  query?: z.ZodObject;
  response?: z.ZodType;
  status?: 200 | 201;
}

export const PUBLIC_API: readonly ApiOperation[] = [
  { method: "get", path: "/api/me", category: "Account", summary: "The person the key or session belongs to", auth: "key" },
  {
    method: "post",
    path: "/api/auth/register",
    category: "Account",
    summary: "Send a 6-digit verification code by WhatsApp or SMS",
    auth: "session",
    body: RegisterSchema,
  },
  {
    method: "post",
    path: "/api/auth/verify",
    category: "Account",
    summary: "Prove the phone with the code",
    auth: "session",
    body: VerifySchema,
  },
  {
    method: "post",
    path: "/api/ai/chat",
    category: "Assistant",
    summary: "Ask the assistant (the words after @ai)",
    auth: "key",
    body: AiChatRequestSchema,
  },
  {
    method: "post",
    path: "/api/ai/translate",
    category: "Assistant",
    summary: "Translate between English, Hausa, Igbo, Yoruba, Swahili, French and Arabic",
    auth: "key",
    body: TranslateRequestSchema,
  },
  {
    method: "post",
    path: "/api/ai/smart-replies",
    category: "Assistant",
    summary: "Suggested replies to a message (verified people)",
    auth: "key",
    body: SmartRepliesRequestSchema,
    response: SmartRepliesResponseSchema,
  },
  { method: "get", path: "/api/ai/usage", category: "Assistant", summary: "Today's assistant use against your plan's limits", auth: "key" },
  {
    method: "get",
    path: "/api/stats/assistant",
    category: "Assistant",
    summary: "Questions answered, translations and voice messages, all time and in the last 7 days",
    auth: "public",
  },
  { method: "get", path: "/api/community", category: "Community", summary: "Public area rooms near you and the largest ones", auth: "key" },
  { method: "get", path: "/api/stats/public", category: "Community", summary: "Live counts of people, rooms and messages", auth: "public" },
  {
    method: "get",
    path: "/api/market/prices",
    category: "Community",
    summary: "Market prices by commodity and place",
    auth: "public",
    query: MarketQuerySchema,
  },
  {
    method: "post",
    path: "/api/emergency/broadcast",
    category: "Emergency",
    summary: "Send an SOS to your area (idempotent per clientRequestId)",
    auth: "key",
    body: EmergencyBroadcastSchema,
    status: 201,
  },
  { method: "get", path: "/api/emergency/nearby", category: "Emergency", summary: "SOS alerts in your area", auth: "key" },
  { method: "get", path: "/api/rewards", category: "Rewards", summary: "Your level, points, streak and achievements", auth: "key" },
  {
    method: "get",
    path: "/api/leaderboard",
    category: "Rewards",
    summary: "The week's or all-time leaders, in your area or nationwide",
    auth: "key",
    query: LeaderboardQuerySchema,
  },
  { method: "get", path: "/api/subscription/status", category: "Subscription", summary: "Your plan and its renewal", auth: "key" },
  {
    method: "post",
    path: "/api/create-subscription",
    category: "Subscription",
    summary: "Start a card payment for a plan",
    auth: "session",
    body: CreateSubscriptionSchema,
  },
];

/** Endpoints the prototype's docs listed that LinkUp does not offer, and why. */
export const NOT_OFFERED: readonly { method: string; path: string; instead: string }[] = [
  { method: "GET", path: "/api/mesh/status", instead: "Live counts are at GET /api/stats/public." },
  {
    method: "GET",
    path: "/api/mesh/nearby",
    instead: "Rooms near you are at GET /api/community; devices nearby are found by each phone itself.",
  },
  { method: "POST", path: "/api/mesh/connect", instead: "Phones connect to each other directly; a server cannot connect them." },
  {
    method: "POST",
    path: "/api/messages/send",
    instead: "Messages are end-to-end encrypted on the device and sent over the room connection, never through a key.",
  },
  {
    method: "GET",
    path: "/api/messages/{userId}",
    instead: "The server holds only ciphertext of private messages; history is on your devices.",
  },
  {
    method: "GET",
    path: "/api/subscription/status/{userId}",
    instead: "Each person reads only their own plan: GET /api/subscription/status.",
  },
];

/** The operation an API key may call for this method and path, or null. */
export function keyOperation(method: string, pathname: string): ApiOperation | null {
  const m = method.toLowerCase();
  return PUBLIC_API.find((op) => op.method === m && op.path === pathname && op.auth !== "session") ?? null;
}

function jsonSchema(schema: z.ZodType) {
  // Request schemas are documented as the client sends them; transforms (language names) stay plain strings.
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
}

const SECURITY: Record<ApiAuth, Record<string, string[]>[]> = {
  public: [],
  key: [{ bearerAuth: [] }, { cookieAuth: [] }],
  session: [{ cookieAuth: [] }],
};

const errorRef = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** The OpenAPI 3.1 document of the public API (served at /api/openapi.json). */
export function openApiDocument(serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of PUBLIC_API) {
    const parameters = op.query
      ? Object.entries(op.query.shape).map(([name, schema]) => ({
          name,
          in: "query",
          required: false,
          schema: jsonSchema(schema as z.ZodType),
        }))
      : undefined;
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: `${op.method}${op.path.replace(/^\/api/, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? "").toUpperCase())}`,
      summary: op.summary,
      tags: [op.category],
      security: SECURITY[op.auth],
      ...(parameters ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.body) } } } } : {}),
      responses: {
        [String(op.status ?? 200)]: {
          description: "OK",
          ...(op.response ? { content: { "application/json": { schema: jsonSchema(op.response) } } } : {}),
        },
        "400": errorRef("Invalid request"),
        ...(op.auth === "public" ? {} : { "401": errorRef("Sign in required, or the API key is not valid") }),
        "429": {
          ...errorRef("Daily limit reached"),
          headers: { "Retry-After": { description: "Seconds until the limit resets", schema: { type: "integer" } } },
        },
      },
    };
  }
  const limits = TIERS.map((t) => {
    const calls = API_DAILY_CALLS[t];
    const devices = API_DEVICES[t];
    return `${API_PLAN_NAMES[t]}: ${calls === null ? "unlimited" : `${calls} calls/day`}${devices === null ? "" : `, up to ${devices} devices`}`;
  }).join("; ");
  return {
    openapi: "3.1.0",
    info: {
      title: "LinkUp API",
      version: "1.0.0",
      description: `Calls with API keys are counted per person per day (UTC), over all their keys. ${limits}.`,
    },
    servers: [{ url: serverUrl }],
    tags: API_CATEGORIES.map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "An API key from /api-docs" },
        cookieAuth: { type: "apiKey", in: "cookie", name: "linkup_session" },
      },
      // Every refusal: English words, a stable code from the one list in core/api-errors.ts, and the values its
      // message needs (docs/decisions/075-errors-as-codes.md). Codes never change meaning once listed here.
      schemas: {
        Error: {
          ...jsonSchema(ApiErrorBodySchema),
          description:
            "A refusal. `error` is an English sentence for people; `code` is stable and machine-readable (branch on it, not on the words); `values` holds what the sentence names (limits, dates, the refused field).",
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof openApiDocument>;
