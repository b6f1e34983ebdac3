// Register one device on channels in Herald's registry (amqplib).
//
//   npm install && node register.mjs <device-token> <channel> [channel ...]
//   npm install && node register.mjs <subscription.json> <channel> [channel ...]
//
// A persistent register command on a confirm channel: once `waitForConfirms`
// resolves the broker has it; Herald applies it, publishes a `registered.*`
// result on herald.results, and only then acks it. Then an event with
// `"targets": [{"channel": "user:42"}]` reaches the device (docs/registry.md).
import amqp from "amqplib";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";

const url = process.env.HERALD_AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672/%2f";
const [token, ...channels] = process.argv.slice(2);
if (!token || channels.length === 0) {
  console.error("usage: node register.mjs <device-token> <channel> [channel ...]");
  process.exit(2);
}

let device = { provider: "apns", token };
// Web Push: a browser's subscription (its PushSubscription.toJSON(), saved as a .json file).
if (token.endsWith(".json")) {
  device = { provider: "webpush", subscription: JSON.parse(readFileSync(token, "utf8")) };
}
// The device's time zone (an IANA name Herald checks against its tz database),
// locale (BCP 47) and the app's own attributes, a browser's as a phone's: kept
// once per device, the same on every channel; a register without them keeps
// the stored ones ("" clears).
const attributes = {
  timezone: process.env.DEVICE_TIMEZONE ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  locale: process.env.DEVICE_LOCALE ?? "en-US",
  attributes: { app_version: "5.2.0" },
};
const command = { id: `reg-${randomUUID()}`, app: "chat", ...device, channels, ...attributes };

const connection = await amqp.connect(url);
try {
  const channel = await connection.createConfirmChannel();
  // Herald declares it too (when its config has a registry: section).
  await channel.assertExchange("herald.registry", "topic", { durable: true });
  let returned = false;
  channel.on("return", () => { returned = true; });
  channel.publish("herald.registry", "register", Buffer.from(JSON.stringify(command)), {
    contentType: "application/json",
    persistent: true,
    messageId: command.id,
    mandatory: true,
  });
  await channel.waitForConfirms();
  if (returned) throw new Error("no queue is bound to herald.registry; does Herald's config have a registry: section?");
  console.log(`sent ${command.id}: register on ${channels.join(", ")}`);
} finally {
  await connection.close();
}
