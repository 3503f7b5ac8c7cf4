import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("consent", "routes/consent.tsx"),
  route("dev/outbox", "routes/dev.outbox.tsx"),
  route("blog", "routes/blog.tsx"),
  route("faq", "routes/faq.tsx"),
  route("pricing", "routes/pricing.tsx"),
  route("features", "routes/features.tsx"),
  route("about", "routes/about.tsx"),
  route("social-good", "routes/social-good.tsx"),
  route("testimonials", "routes/testimonials.tsx"),
  route("onboarding", "routes/onboarding.tsx"),
  route("enhanced-onboarding", "routes/enhanced-onboarding.tsx"),
  route("signup", "routes/signup.tsx"),
  route("signup-verification", "routes/signup-verification.tsx"),
  route("settings", "routes/settings.tsx"),
  route("emergency", "routes/emergency.tsx"),
  route("notifications", "routes/notifications.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
