// The pages' server modules run inside the Worker, but this type configuration has no Worker types
// (docs/architecture.md §2): the one server module that reads the Worker's environment sees it as `unknown`
// and names the few values it needs itself.
declare module "cloudflare:workers" {
  export const env: unknown;
}
