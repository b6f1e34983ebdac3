#!/usr/bin/env ruby
# Publish one notification event to Herald (Bunny).
#
#   bundle install && ruby publish.rb <device-token> [routing-key]
#
# Persistent message plus publisher confirms: when wait_for_confirms returns
# true the broker has the event and Herald delivers it at least once.
# Body schema: schemas/event.schema.json.
require "bunny"
require "json"
require "securerandom"



token = ARGV[0] or abort("usage: ruby publish.rb <device-token> [routing-key]")
routing_key = ARGV[1] || "chat.message"

event = {
  id: "evt-#{SecureRandom.uuid}", # idempotency key
  app: "chat",
  targets: [{ provider: "apns", token: token }],
  notification: { title: "New message", body: "Alice: hi", sound: "default" },
  data: { thread_id: 42 },
  collapse_id: "thread-42",
  ttl: 3600,
  context: { user_id: "u-1" } # echoed in every outcome
}

connection = Bunny.new(ENV.fetch("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
connection.start
begin
  channel = connection.create_channel
  channel.confirm_select
  # Herald declares it too, with the same arguments.
  exchange = channel.topic("herald.events", durable: true)
  returned = false
  exchange.on_return { returned = true } # mandatory and unroutable: Herald is not bound yet
  exchange.publish(JSON.generate(event),
                   routing_key: routing_key,
                   content_type: "application/json",
                   persistent: true,
                   message_id: event[:id],
                   mandatory: true)
  abort("publish: the broker refused the event (nack)") unless channel.wait_for_confirms
  abort("publish: no queue is bound to herald.events for #{routing_key}; is Herald running?") if returned
  puts "published #{event[:id]} with routing key #{routing_key}"
ensure
  connection.close
end
