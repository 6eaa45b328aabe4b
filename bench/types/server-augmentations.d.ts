/**
 * Type augmentations the server's modules rely on (reply.setCookie …) come from packages the
 * server registers in app.ts; bench imports single server modules, so load them here.
 */
import "@fastify/cookie";
