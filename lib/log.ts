import pino from "pino";

/** Structured JSON logs; credentials and secrets are redacted wherever they appear. */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === "test" ? "silent" : "info"),
  base: { service: "switchboard" },
  redact: {
    paths: [
      "authorization",
      "*.authorization",
      "headers.authorization",
      "*.headers.authorization",
      "password",
      "*.password",
      "secret",
      "*.secret",
      "key",
      "*.key",
    ],
    censor: "[redacted]",
  },
});
