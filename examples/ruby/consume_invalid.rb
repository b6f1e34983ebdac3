#!/usr/bin/env ruby
# Delete the device tokens Herald reports dead (Bunny).
#
#   bundle install && ruby consume_invalid.rb
#
# Outcomes arrive on the `herald.results` topic exchange with routing key
# <status>.<provider>.<app>; `invalid_token.#` selects every app's dead tokens
# (`invalid_token.*.chat` for one). Delivery is at least once: deleting must
# be idempotent. Body schema: schemas/outcome.schema.json.
#
# The queue is durable and named (a quorum queue) on purpose: a service that
# deletes dead tokens must not miss the outcomes published while it is down,
# so the queue outlives this process and goes on collecting invalid_token
# outcomes until it is deleted. After trying the example, delete it:
# `rabbitmqctl delete_queue chat-backend.invalid-tokens`. To watch outcomes
# only while a program runs, use a server-named exclusive queue instead:
# `channel.queue("", exclusive: true)`.
require "bunny"
require "json"

$stdout.sync = true # log lines appear at once under a process supervisor

connection = Bunny.new(ENV.fetch("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
connection.start
channel = connection.create_channel
channel.prefetch(50)
results = channel.topic("herald.results", durable: true)
# Durable, named and replicated: outcomes published while this service is down
# wait for it (it stays until deleted; see the header).
queue = channel.queue("chat-backend.invalid-tokens", durable: true, arguments: { "x-queue-type" => "quorum" })
queue.bind(results, routing_key: "invalid_token.#")

puts "waiting for invalid tokens on #{queue.name}"
begin
  queue.subscribe(manual_ack: true, block: true) do |delivery, _properties, body|
    outcome = JSON.parse(body)
    if outcome["token"]
      # A real service deletes the token here (unless the device registered it
      # again after outcome["invalidated_at"]).
      puts "delete token #{outcome['token']} (provider #{outcome['provider']}, app #{outcome['app']}, reason #{outcome['reason']})"
    end
    channel.ack(delivery.delivery_tag) # only after the token is gone
  rescue JSON::ParserError
    channel.reject(delivery.delivery_tag, false) # not an outcome: do not redeliver it forever
  end
rescue Interrupt
  connection.close
end
