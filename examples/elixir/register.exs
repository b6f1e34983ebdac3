# Register one device on channels in Herald's registry (the `amqp` Hex package).
#
#   elixir register.exs <device-token> <channel> [channel ...]
#   elixir register.exs <subscription.json> <channel> [channel ...]
#
# Persistent command plus publisher confirms: Herald applies it, publishes a
# registered.* result on herald.results, and only then acks it. Then an event
# with "targets": [%{"channel" => "user:42"}] reaches the device (docs/registry.md).
Mix.install([{:amqp, "~> 3.3"}, {:jason, "~> 1.4"}])

{token, channels} =
  case System.argv() do
    [token | channels] when channels != [] -> {token, channels}
    _ -> raise "usage: elixir register.exs <device-token> <channel> [channel ...]"
  end

url = System.get_env("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f")
id = "reg-" <> Base.encode16(:crypto.strong_rand_bytes(8), case: :lower)
device =
  if String.ends_with?(token, ".json") do
    # Web Push: a browser's subscription (its PushSubscription.toJSON(), saved as a .json file).
    %{provider: "webpush", subscription: Jason.decode!(File.read!(token))}
  else
    %{provider: "apns", token: token}
  end

# The device's time zone (an IANA name Herald checks against its tz database),
# locale (BCP 47) and the app's own attributes, a browser's as a phone's: kept
# once per device, the same on every channel; a register without them keeps
# the stored ones ("" clears).
command =
  Map.merge(
    %{
      id: id,
      app: "chat",
      channels: channels,
      timezone: System.get_env("DEVICE_TIMEZONE", "Europe/Paris"),
      locale: System.get_env("DEVICE_LOCALE", "fr-FR"),
      attributes: %{app_version: "5.2.0"}
    },
    device
  )

{:ok, conn} = AMQP.Connection.open(url)
{:ok, chan} = AMQP.Channel.open(conn)
# Herald declares it too (when its config has a registry: section).
:ok = AMQP.Exchange.declare(chan, "herald.registry", :topic, durable: true)
:ok = AMQP.Confirm.select(chan)
:ok = AMQP.Basic.return(chan, self())

:ok =
  AMQP.Basic.publish(chan, "herald.registry", "register", Jason.encode!(command),
    content_type: "application/json",
    persistent: true,
    message_id: id,
    mandatory: true
  )

true = AMQP.Confirm.wait_for_confirms(chan, 10_000)

receive do
  {:basic_return, _payload, _meta} ->
    raise "no queue is bound to herald.registry; does Herald's config have a registry: section?"
after
  0 -> IO.puts("sent #{id}: register on #{Enum.join(channels, ", ")}")
end

AMQP.Connection.close(conn)
