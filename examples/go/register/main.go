// Command register puts one device on channels in Herald's registry (amqp091-go).
//
//	go run ./register <device-token> <channel> [channel ...]
//	go run ./register <subscription.json> <channel> [channel ...]
//
// A persistent command on a confirm channel: Herald applies it, publishes a
// registered.* result on herald.results, and only then acks it. Then an event
// with "targets": [{"channel": "user:42"}] reaches the device (docs/registry.md).
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

type command struct {
	ID           string          `json:"id"` // echoed as command_id in the result
	App          string          `json:"app"`
	Provider     string          `json:"provider"`
	Token        string          `json:"token,omitempty"`
	Subscription json.RawMessage `json:"subscription,omitempty"` // Web Push: a browser's PushSubscription.toJSON()
	Channels     []string        `json:"channels"`

	// The device's time zone (an IANA name Herald checks against its tz
	// database), locale (BCP 47) and the app's own attributes, a browser's as
	// a phone's: kept once per device, the same on every channel. Empty ones
	// are left out (omitempty), so the stored values stay; send
	// "timezone": "" to clear one.
	Timezone   string            `json:"timezone,omitempty"`
	Locale     string            `json:"locale,omitempty"`
	Attributes map[string]string `json:"attributes,omitempty"`
}

func main() {
	if len(os.Args) < 3 {
		log.Fatal("usage: register <device-token> <channel> [channel ...]")
	}
	url := os.Getenv("HERALD_AMQP_URL")
	if url == "" {
		url = "amqp://guest:guest@127.0.0.1:5672/%2f"
	}
	raw := make([]byte, 8)
	if _, err := rand.Read(raw); err != nil {
		log.Fatal(err)
	}
	id := "reg-" + hex.EncodeToString(raw)
	timezone := os.Getenv("DEVICE_TIMEZONE")
	if timezone == "" {
		timezone = "Europe/Paris"
	}
	cmd := command{
		ID: id, App: "chat", Provider: "apns", Token: os.Args[1], Channels: os.Args[2:],
		Timezone: timezone, Locale: "fr-FR", Attributes: map[string]string{"app_version": "5.2.0"},
	}
	// Web Push: a browser's subscription, saved as a .json file.
	if strings.HasSuffix(os.Args[1], ".json") {
		subscription, err := os.ReadFile(os.Args[1])
		if err != nil {
			log.Fatal(err)
		}
		cmd.Provider, cmd.Token, cmd.Subscription = "webpush", "", subscription
	}
	body, err := json.Marshal(cmd)
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
	// Herald declares it too (when its config has a registry: section).
	if err := ch.ExchangeDeclare("herald.registry", "topic", true, false, false, false, nil); err != nil {
		log.Fatalf("declare: %v", err)
	}
	if err := ch.Confirm(false); err != nil {
		log.Fatalf("confirm mode: %v", err)
	}
	confirms := ch.NotifyPublish(make(chan amqp.Confirmation, 1))
	returns := ch.NotifyReturn(make(chan amqp.Return, 1))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = ch.PublishWithContext(ctx, "herald.registry", "register", true, false, amqp.Publishing{
		ContentType:  "application/json",
		DeliveryMode: amqp.Persistent,
		MessageId:    id,
		Body:         body,
	})
	if err != nil {
		log.Fatalf("publish: %v", err)
	}
	select {
	case confirm := <-confirms:
		if !confirm.Ack {
			log.Fatal("register: the broker refused the command (nack)")
		}
	case <-ctx.Done():
		log.Fatal("register: no confirm from the broker")
	}
	select {
	case <-returns:
		log.Fatal("register: no queue is bound to herald.registry; does Herald's config have a registry: section?")
	default:
	}
	fmt.Printf("sent %s: register on %s\n", id, strings.Join(os.Args[2:], ", "))
}
