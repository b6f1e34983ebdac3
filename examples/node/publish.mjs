// Publish one notification event to Herald (amqplib).
//
//   npm install && node publish.mjs <device-token> [routing-key]
//
// A persistent message on a confirm channel: once `waitForConfirms` resolves
// the broker has the event, and Herald delivers it at least once.
// Body schema: schemas/event.schema.json.
import amqp from "amqplib";
import { randomUUID } from "node:crypto";

const url = process.env.HERALD_AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672/%2f";
const [token, routingKey = "chat.message"] = process.argv.slice(2);
if (!token) {
  console.error("usage: node publish.mjs <device-token> [routing-key]");
  process.exit(2);
}

const event = {
  id: `evt-${randomUUID()}`, // idempotency key
  app: "chat",
  targets: [{ provider: "apns", token }],
  notification: { title: "New message", body: "Alice: hi", sound: "default" },
  data: { thread_id: 42 },
  collapse_id: "thread-42",
  ttl: 3600,
  context: { user_id: "u-1" }, // echoed in every outcome
};

const connection = await amqp.connect(url);
try {
  const channel = await connection.createConfirmChannel();
  // Herald declares it too, with the same arguments.
  await channel.assertExchange("herald.events", "topic", { durable: true });
  // mandatory: an event no queue is bound for comes back as 'return' instead of vanishing.
  let returned = false;
  channel.on("return", () => { returned = true; });
  channel.publish("herald.events", routingKey, Buffer.from(JSON.stringify(event)), {
    contentType: "application/json",
    persistent: true,
    messageId: event.id,
    mandatory: true,
  });
  await channel.waitForConfirms(); // rejects if the broker nacks
  if (returned) throw new Error(`no queue is bound to herald.events for ${routingKey}; is Herald running?`);
  console.log(`published ${event.id} with routing key ${routingKey}`);
} finally {
  await connection.close();
}
