#!/usr/bin/env ruby
# Register one device on channels in Herald's registry (Bunny).
#
#   bundle install && ruby register.rb <device-token> <channel> [channel ...]
#   bundle install && ruby register.rb <subscription.json> <channel> [channel ...]
#
# Persistent command plus publisher confirms: Herald applies it, publishes a
# registered.* result on herald.results, and only then acks it. Then an event
# with "targets": [{"channel": "user:42"}] reaches the device (docs/registry.md).
require "bunny"
require "json"
require "securerandom"

token, *channels = ARGV
abort("usage: ruby register.rb <device-token> <channel> [channel ...]") if token.nil? || channels.empty?

device = { provider: "apns", token: token }
# Web Push: a browser's subscription (its PushSubscription.toJSON(), saved as a .json file).
if token.end_with?(".json")
  device = { provider: "webpush", subscription: JSON.parse(File.read(token)) }
end
# The device's time zone (an IANA name Herald checks against its tz database),
# locale (BCP 47) and the app's own attributes, a browser's as a phone's: kept
# once per device, the same on every channel; a register without them keeps
# the stored ones ("" clears).
command = { id: "reg-#{SecureRandom.uuid}", app: "chat", **device, channels: channels,
            timezone: ENV.fetch("DEVICE_TIMEZONE", "Europe/Paris"), locale: ENV.fetch("DEVICE_LOCALE", "fr-FR"),
            attributes: { app_version: "5.2.0" } }

connection = Bunny.new(ENV.fetch("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
connection.start
begin
  channel = connection.create_channel
  channel.confirm_select
  # Herald declares it too (when its config has a registry: section).
  exchange = channel.topic("herald.registry", durable: true)
  returned = false
  exchange.on_return { returned = true }
  exchange.publish(JSON.generate(command), routing_key: "register", content_type: "application/json",
                                           persistent: true, message_id: command[:id], mandatory: true)
  abort("register: the broker refused the command (nack)") unless channel.wait_for_confirms
  abort("register: no queue is bound to herald.registry; does Herald's config have a registry: section?") if returned
  puts "sent #{command[:id]}: register on #{channels.join(', ')}"
ensure
  connection.close
end
