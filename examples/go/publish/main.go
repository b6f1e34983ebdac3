// Command publish sends one notification event to Herald (amqp091-go).
//
//	go run ./publish <device-token> [routing-key]
//
// The message is persistent and the channel is in confirm mode: when the
// broker's ack arrives it has the event, and Herald delivers it at least once.
// Body schema: schemas/event.schema.json.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

type target struct {
	Provider string `json:"provider"`
	Token    string `json:"token"`
}

type notification struct {
	Title string `json:"title,omitempty"`
	Body  string `json:"body,omitempty"`
	Sound string `json:"sound,omitempty"`
}

type event struct {
	ID           string            `json:"id"` // idempotency key
	App          string            `json:"app"`
	Targets      []target          `json:"targets"`
	Notification notification      `json:"notification"`
	Data         map[string]any    `json:"data,omitempty"`
	CollapseID   string            `json:"collapse_id,omitempty"`
	TTL          int               `json:"ttl"`
	Context      map[string]string `json:"context,omitempty"` // echoed in every outcome
}

func main() {
	if len(os.Args) < 2 {
		log.Fatal("usage: publish <device-token> [routing-key]")
	}
	routingKey := "chat.message"
	if len(os.Args) > 2 {
		routingKey = os.Args[2]
	}
	url := os.Getenv("HERALD_AMQP_URL")
	if url == "" {
		url = "amqp://guest:guest@127.0.0.1:5672/%2f"
	}

	id := make([]byte, 8)
	if _, err := rand.Read(id); err != nil {
		log.Fatal(err)
	}
	body, err := json.Marshal(event{
		ID:           "evt-" + hex.EncodeToString(id),
		App:          "chat",
		Targets:      []target{{Provider: "apns", Token: os.Args[1]}},
		Notification: notification{Title: "New message", Body: "Alice: hi", Sound: "default"},
		Data:         map[string]any{"thread_id": 42},
		CollapseID:   "thread-42",
		TTL:          3600,
		Context:      map[string]string{"user_id": "u-1"},
	})
	if err != nil {
		log.Fatal(err)
	}

	conn, err := amqp.Dial(url)
	if err != nil {
		log.Fatalf("connect: %v", err)
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		log.Fatalf("channel: %v", err)
	}
	// Herald declares it too, with the same arguments.
	if err := ch.ExchangeDeclare("herald.events", "topic", true, false, false, false, nil); err != nil {
		log.Fatalf("declare: %v", err)
	}
	if err := ch.Confirm(false); err != nil {
		log.Fatalf("confirm mode: %v", err)
	}
	confirms := ch.NotifyPublish(make(chan amqp.Confirmation, 1))
	returns := ch.NotifyReturn(make(chan amqp.Return, 1))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = ch.PublishWithContext(ctx, "herald.events", routingKey,
		true,  // mandatory: an event no queue is bound for comes back instead of vanishing
		false, // immediate: not supported by RabbitMQ
		amqp.Publishing{
			ContentType:  "application/json",
			DeliveryMode: amqp.Persistent,
			MessageId:    "evt-" + hex.EncodeToString(id),
			Body:         body,
		})
	if err != nil {
		log.Fatalf("publish: %v", err)
	}
	select {
	case confirm := <-confirms: // a return, if any, arrives before the ack
		if !confirm.Ack {
			log.Fatal("publish: the broker refused the event (nack)")
		}
	case <-ctx.Done():
		log.Fatal("publish: no confirm from the broker")
	}
	select {
	case <-returns:
		log.Fatalf("publish: no queue is bound to herald.events for %q; is Herald running?", routingKey)
	default:
	}
	fmt.Printf("published evt-%s with routing key %s\n", hex.EncodeToString(id), routingKey)
}
