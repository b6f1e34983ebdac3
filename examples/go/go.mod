module example.com/herald-examples

go 1.19

require github.com/rabbitmq/amqp091-go v1.10.0
