# Delete the device tokens Herald reports dead (the `amqp` Hex package).
#
#   elixir consume_invalid.exs
#
# Outcomes arrive on the herald.results topic exchange with routing key
# <status>.<provider>.<app>; "invalid_token.#" selects every app's dead
# tokens ("invalid_token.*.chat" for one). Delivery is at least once, so
# deleting must be idempotent. Body schema: schemas/outcome.schema.json.
#
# The queue is durable and named (a quorum queue) on purpose: a service that
# deletes dead tokens must not miss the outcomes published while it is down,
# so the queue outlives this process and goes on collecting invalid_token
# outcomes until it is deleted. After trying the example, delete it:
# `rabbitmqctl delete_queue chat-backend.invalid-tokens`. To watch outcomes
# only while a program runs, use a server-named exclusive queue instead:
# `AMQP.Queue.declare(chan, "", exclusive: true)`.
Mix.install([{:amqp, "~> 3.3"}, {:jason, "~> 1.4"}])

defmodule InvalidTokens do
  @queue "chat-backend.invalid-tokens"

  def run(url) do
    {:ok, conn} = AMQP.Connection.open(url)
    {:ok, chan} = AMQP.Channel.open(conn)
    :ok = AMQP.Exchange.declare(chan, "herald.results", :topic, durable: true)
    # Durable, named and replicated: outcomes published while this service is down
    # wait for it (it stays until deleted; see the header).
    {:ok, _} =
      AMQP.Queue.declare(chan, @queue,
        durable: true,
        arguments: [{"x-queue-type", :longstr, "quorum"}]
      )

    :ok = AMQP.Queue.bind(chan, @queue, "herald.results", routing_key: "invalid_token.#")
    :ok = AMQP.Basic.qos(chan, prefetch_count: 50)
    {:ok, _consumer_tag} = AMQP.Basic.consume(chan, @queue)
    IO.puts("waiting for invalid tokens on #{@queue}")
    loop(chan)
  end

  defp loop(chan) do
    receive do
      {:basic_deliver, payload, %{delivery_tag: tag}} ->
        case Jason.decode(payload) do
          {:ok, outcome} ->
            delete_token(outcome)
            # only after the token is gone
            :ok = AMQP.Basic.ack(chan, tag)

          {:error, _} ->
            # not an outcome: do not redeliver it forever
            :ok = AMQP.Basic.reject(chan, tag, requeue: false)
        end

        loop(chan)

      {:basic_cancel, _} ->
        raise "the broker cancelled the consumer"

      _other ->
        # basic_consume_ok and the like
        loop(chan)
    end
  end

  # A real service deletes the token here (unless the device registered it
  # again after "invalidated_at"). Topics and conditions have no token.
  defp delete_token(%{"token" => token} = outcome) do
    IO.puts(
      "delete token #{token} (provider #{outcome["provider"]}, app #{outcome["app"]}, reason #{outcome["reason"]})"
    )
  end

  defp delete_token(_outcome), do: :ok
end

InvalidTokens.run(System.get_env("HERALD_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f"))
