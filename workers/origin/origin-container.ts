import { Container } from "@cloudflare/containers";

/** The one binding the container reads: the secret the origin checks on every request. */
interface OriginContainerEnv {
  ORIGIN_SECRET: string;
}

/**
 * The origin image (origin/Dockerfile) as Cloudflare Containers: a Durable Object per instance
 * that starts the container on demand and forwards requests to its port. Locally the origin is a
 * plain Node process reached through ORIGIN_URL instead.
 */
export class OriginContainer extends Container {
  override defaultPort = 8788;
  override sleepAfter = "10m";

  constructor(ctx: DurableObjectState<Record<string, never>>, env: Cloudflare.Env & OriginContainerEnv) {
    super(ctx, env);
    this.envVars = { ORIGIN_SECRET: env.ORIGIN_SECRET, ENVIRONMENT: "production", PORT: "8788", HOST: "0.0.0.0" };
  }
}
