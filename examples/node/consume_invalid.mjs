// Delete the device tokens Herald reports dead (amqplib).
//
//   npm install && node consume_invalid.mjs
//
// Outcomes are published to the `herald.results` topic exchange with routing
// key <status>.<provider>.<app>; `invalid_token.#` selects the dead tokens of
// every app (`invalid_token.*.chat` for one). Delivery is at least once, so
// deleting must be idempotent. Body schema: schemas/outcome.schema.json.
//
// The queue is durable and named (a quorum queue) on purpose: a service that
// deletes dead tokens must not miss the outcomes published while it is down,
// so the queue outlives this process and goes on collecting invalid_token
// outcomes until it is deleted. After trying the example, delete it:
// `rabbitmqctl delete_queue chat-backend.invalid-tokens`. To watch outcomes
// only while a program runs, use a server-named exclusive queue instead:
// `channel.assertQueue("", { exclusive: true })`.
import amqp from "amqplib";

const url = process.env.HERALD_AMQP_URL ?? "amqp://guest:guest@127.0.0.1:5672/%2f";
const queue = "chat-backend.invalid-tokens";

const connection = await amqp.connect(url);
const channel = await connection.createChannel();
await channel.assertExchange("herald.results", "topic", { durable: true });
// Durable, named and replicated: outcomes published while this service is down
// wait for it (it stays until deleted; see the header).
await channel.assertQueue(queue, { durable: true, arguments: { "x-queue-type": "quorum" } });
await channel.bindQueue(queue, "herald.results", "invalid_token.#");
await channel.prefetch(50);

await channel.consume(queue, (message) => {
  if (message === null) {
    console.error("the broker cancelled the consumer (queue deleted?)");
    process.exit(1);
  }
  let outcome;
  try {
    outcome = JSON.parse(message.content.toString("utf8"));
  } catch {
    channel.nack(message, false, false); // not an outcome: do not redeliver it forever
    return;
  }
  if (outcome.token) {
    // A real service deletes the token here (unless the device registered it
    // again after outcome.invalidated_at).
    console.log(`delete token ${outcome.token} (provider ${outcome.provider}, app ${outcome.app}, reason ${outcome.reason})`);
  }
  channel.ack(message); // only after the token is gone
});

const stop = async () => { await connection.close(); process.exit(0); };
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
console.log(`waiting for invalid tokens on ${queue}`);
