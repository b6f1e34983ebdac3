// Command consume-invalid deletes the device tokens Herald reports dead
// (amqp091-go).
//
//	go run ./consume-invalid
//
// Outcomes arrive on the herald.results topic exchange with routing key
// <status>.<provider>.<app>; "invalid_token.#" selects every app's dead
// tokens ("invalid_token.*.chat" for one). Delivery is at least once, so
// deleting must be idempotent. Body schema: schemas/outcome.schema.json.
//
// The queue is durable and named (a quorum queue) on purpose: a service that
// deletes dead tokens must not miss the outcomes published while it is down,
// so the queue outlives this process and goes on collecting invalid_token
// outcomes until it is deleted. After trying the example, delete it:
// `rabbitmqctl delete_queue chat-backend.invalid-tokens`. To watch outcomes
// only while a program runs, use a server-named exclusive queue instead:
// ch.QueueDeclare("", false, true, true, false, nil).
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	amqp "github.com/rabbitmq/amqp091-go"
)

// outcome holds the fields this consumer needs; others are ignored, as
// outcomes may gain fields.
type outcome struct {
	EventID       string `json:"event_id"`
	App           string `json:"app"`
	Provider      string `json:"provider"`
	Token         string `json:"token"`
	Reason        string `json:"reason"`
	InvalidatedAt string `json:"invalidated_at"`
}

func main() {
	url := os.Getenv("HERALD_AMQP_URL")
	if url == "" {
		url = "amqp://guest:guest@127.0.0.1:5672/%2f"
	}
	const queue = "chat-backend.invalid-tokens"

	conn, err := amqp.Dial(url)
	if err != nil {
		log.Fatalf("connect: %v", err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		log.Fatalf("channel: %v", err)
	}
	if err := ch.ExchangeDeclare("herald.results", "topic", true, false, false, false, nil); err != nil {
		log.Fatalf("declare exchange: %v", err)
	}
	// Durable, named and replicated: outcomes published while this service is down
	// wait for it (it stays until deleted; see the package comment).
	if _, err := ch.QueueDeclare(queue, true, false, false, false, amqp.Table{"x-queue-type": "quorum"}); err != nil {
		log.Fatalf("declare queue: %v", err)
	}
	if err := ch.QueueBind(queue, "invalid_token.#", "herald.results", false, nil); err != nil {
		log.Fatalf("bind: %v", err)
	}
	if err := ch.Qos(50, 0, false); err != nil {
		log.Fatalf("qos: %v", err)
	}
	deliveries, err := ch.Consume(queue, "", false, false, false, false, nil)
	if err != nil {
		log.Fatalf("consume: %v", err)
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	fmt.Println("waiting for invalid tokens on", queue)
	for {
		select {
		case <-stop:
			return
		case d, ok := <-deliveries:
			if !ok {
				log.Fatal("the broker closed the channel")
			}
			var o outcome
			if err := json.Unmarshal(d.Body, &o); err != nil {
				_ = d.Nack(false, false) // not an outcome: do not redeliver it forever
				continue
			}
			if o.Token != "" {
				// A real service deletes the token here (unless the device
				// registered it again after o.InvalidatedAt).
				fmt.Printf("delete token %s (provider %s, app %s, reason %s)\n", o.Token, o.Provider, o.App, o.Reason)
			}
			_ = d.Ack(false) // only after the token is gone
		}
	}
}
