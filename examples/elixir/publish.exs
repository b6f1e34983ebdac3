# Publish one notification event to Herald (the `amqp` Hex package).
#
#   elixir publish.exs <device-token> [routing-key]
#
# Persistent message plus publisher confirms: when wait_for_confirms returns
# true the broker has the event, and Herald delivers it at least once.
# Body schema: schemas/event.schema.json.
Mix.install([{:amqp, "~> 3.3"}, {:jason, "~> 1.4"}])

{token, routing_key} =
  case System.argv() do
    [token] -> {token, "chat.message"}
    [token, key] -> {token, key}
    _ -> raise "usage: elixir publish.exs <device-token> [routing-key]"
  end

url = System.get_env("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f")
id = "evt-" <> Base.encode16(:crypto.strong_rand_bytes(8), case: :lower)

event = %{
  id: id,
  app: "chat",
  targets: [%{provider: "apns", token: token}],
  notification: %{title: "New message", body: "Alice: hi", sound: "default"},
  data: %{thread_id: 42},
  collapse_id: "thread-42",
  ttl: 3600,
  # echoed in every outcome
  context: %{user_id: "u-1"}
}

{:ok, conn} = AMQP.Connection.open(url)
{:ok, chan} = AMQP.Channel.open(conn)
# Herald declares it too, with the same arguments.
:ok = AMQP.Exchange.declare(chan, "herald.events", :topic, durable: true)
:ok = AMQP.Confirm.select(chan)
# With mandatory, an event no queue is bound for comes back as {:basic_return, ...}.
:ok = AMQP.Basic.return(chan, self())

:ok =
  AMQP.Basic.publish(chan, "herald.events", routing_key, Jason.encode!(event),
    content_type: "application/json",
    persistent: true,
    message_id: id,
    mandatory: true
  )

# A return arrives before the ack, so it is in the mailbox once this is true.
true = AMQP.Confirm.wait_for_confirms(chan, 10_000)

receive do
  {:basic_return, _payload, _meta} ->
    raise "no queue is bound to herald.events for #{routing_key}; is Herald running?"
after
  0 -> IO.puts("published #{id} with routing key #{routing_key}")
end

AMQP.Connection.close(conn)
