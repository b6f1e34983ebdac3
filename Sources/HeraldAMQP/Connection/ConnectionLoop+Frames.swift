import CRabbitMQ
import HeraldCore

extension ConnectionLoop {
    /// Handles one frame from the broker; returns an error when the connection is
    /// finished (broker closed it, or a reply could not be written).
    func handle(_ frame: amqp_frame_t, on connection: RabbitConnection) -> AMQPError? {
        let channel = frame.channel
        switch Int32(frame.frame_type) {
        case AMQP_FRAME_METHOD:
            return handleMethod(frame.payload.method, channel: channel, on: connection)
        case AMQP_FRAME_HEADER:
            guard let content = assemblers[channel, default: ContentAssembler()].header(frame) else { return nil }
            return dispatch(content, on: connection)
        case AMQP_FRAME_BODY:
            guard let content = assemblers[channel, default: ContentAssembler()].bodyFragment(frame) else { return nil }
            return dispatch(content, on: connection)
        default:
            return nil
        }
    }

    private func handleMethod(_ method: amqp_method_t, channel: UInt16, on connection: RabbitConnection) -> AMQPError? {
        switch method.id {
        case AMQP_BASIC_DELIVER_METHOD:
            guard let deliver = decoded(method, as: amqp_basic_deliver_t.self) else { return nil }
            assemblers[channel, default: ContentAssembler()].begin(
                .delivery(
                    consumerTag: String(amqpBytes: deliver.consumer_tag), deliveryTag: deliver.delivery_tag,
                    redelivered: deliver.redelivered != 0, exchange: String(amqpBytes: deliver.exchange),
                    routingKey: String(amqpBytes: deliver.routing_key)))
        case AMQP_BASIC_RETURN_METHOD:
            guard let returned = decoded(method, as: amqp_basic_return_t.self) else { return nil }
            assemblers[channel, default: ContentAssembler()].begin(
                .returned(
                    replyCode: Int(returned.reply_code), replyText: String(amqpBytes: returned.reply_text),
                    exchange: String(amqpBytes: returned.exchange), routingKey: String(amqpBytes: returned.routing_key))
            )
        case AMQP_BASIC_ACK_METHOD:
            guard channel == Self.publishChannel, let ack = decoded(method, as: amqp_basic_ack_t.self) else {
                return nil
            }
            confirm(tag: ack.delivery_tag, multiple: ack.multiple != 0, acked: true)
        case AMQP_BASIC_NACK_METHOD:
            guard channel == Self.publishChannel, let nack = decoded(method, as: amqp_basic_nack_t.self) else {
                return nil
            }
            confirm(tag: nack.delivery_tag, multiple: nack.multiple != 0, acked: false)
        case AMQP_BASIC_CANCEL_METHOD:
            guard let cancel = decoded(method, as: amqp_basic_cancel_t.self) else { return nil }
            let tag = String(amqpBytes: cancel.consumer_tag)
            if let registration = consumers.removeValue(forKey: tag) {
                logger.warning(
                    "amqp consumer cancelled by broker",
                    [
                        "consumer_tag": .string(tag),
                        "queue": .string(registration.spec.queue),
                    ])
                registration.stream.finish(
                    throwing: AMQPError(
                        .consumerCancelled, operation: "basic.consume \(registration.spec.queue)",
                        detail: "the broker cancelled the consumer (queue deleted or failed over)", isRetryable: true))
            }
        case AMQP_CHANNEL_CLOSE_METHOD:
            return channelClosed(method, channel: channel, on: connection)
        case AMQP_CONNECTION_CLOSE_METHOD:
            connection.sendConnectionCloseOk()
            let reply = amqp_rpc_reply_t(reply_type: AMQP_RESPONSE_SERVER_EXCEPTION, reply: method, library_error: 0)
            return RabbitStatus.error(.reply(reply), operation: "connection")
        case AMQP_CONNECTION_BLOCKED_METHOD:
            let reason = decoded(method, as: amqp_connection_blocked_t.self).map { String(amqpBytes: $0.reason) } ?? ""
            blocked = true
            logger.warning("amqp connection blocked by broker", ["reason": .string(reason)])
        case AMQP_CONNECTION_UNBLOCKED_METHOD:
            blocked = false
            logger.info("amqp connection unblocked")
        default:
            logger.debug(
                "amqp unexpected method ignored", ["method": .int(Int(method.id)), "channel": .int(Int(channel))])
        }
        return nil
    }

    private func confirm(tag: UInt64, multiple: Bool, acked: Bool) {
        let settled = confirms.settle(
            tag: tag, multiple: multiple, acked: acked,
            operation: acked ? "basic.publish (confirm \(tag))" : "basic.publish (nack \(tag))")
        for (waiter, failure) in settled {
            if let failure { waiter.resume(throwing: failure) } else { waiter.resume() }
        }
    }

    /// The broker closed a channel. The publish channel is reopened in place (its
    /// unconfirmed publishes fail); the consume channel takes the connection down,
    /// because its delivery tags die with it.
    private func channelClosed(_ method: amqp_method_t, channel: UInt16, on connection: RabbitConnection) -> AMQPError?
    {
        let reply = amqp_rpc_reply_t(reply_type: AMQP_RESPONSE_SERVER_EXCEPTION, reply: method, library_error: 0)
        let error =
            RabbitStatus.error(.reply(reply), operation: "channel \(channel)")
            ?? AMQPError(.channelClosed, operation: "channel \(channel)", isRetryable: true)
        logger.warning(
            "amqp channel closed by broker", ["channel": .int(Int(channel)), "error": .string(error.description)])
        assemblers[channel] = nil
        do throws(AMQPError) {
            try connection.sendChannelCloseOk(channel)
            switch channel {
            case Self.publishChannel:
                failUnconfirmed(after: error)
                confirms.reset()
                try connection.openChannel(Self.publishChannel)
                try connection.confirmSelect(Self.publishChannel)
                return nil
            case Self.adminChannel:
                adminChannelOpen = false
                return nil
            default:
                return error
            }
        } catch {
            return error
        }
    }

    /// Fails the publishes that were in flight on the closed publish channel. The
    /// broker does not say which publish closed it, but a 404 names the exchange:
    /// publishes to that exchange get the broker's (permanent) error, the others,
    /// innocent bystanders, a retryable one. Any other close is pinned on the only
    /// publish in flight, or else is retryable for all.
    private func failUnconfirmed(after error: AMQPError) {
        let unconfirmed = confirms.removeAllWithExchanges()
        for (waiter, exchange) in unconfirmed {
            let named = error.detail.contains("'\(exchange)'")
            let culprit = unconfirmed.count == 1 || (error.replyCode == 404 && named)
            waiter.resume(
                throwing: AMQPError(
                    .channelClosed, operation: "basic.publish \(exchange)",
                    detail: culprit
                        ? error.detail : "channel closed by another publish (\(error.detail)); publish again",
                    replyCode: error.replyCode, isRetryable: culprit ? error.isRetryable : true))
        }
    }

    /// A complete message: a delivery goes to its consumer's stream, a return marks its publish.
    private func dispatch(_ content: ContentAssembler.Content, on connection: RabbitConnection) -> AMQPError? {
        switch content.announcement {
        case .delivery(let consumerTag, let deliveryTag, let redelivered, let exchange, let routingKey):
            let delivery = AMQPDelivery(
                body: content.body, exchange: exchange, routingKey: routingKey, redelivered: redelivered,
                tag: DeliveryTag(value: deliveryTag, connection: generation), consumerTag: consumerTag,
                properties: content.properties)
            if let registration = consumers[consumerTag], case .enqueued = registration.stream.yield(delivery) {
                deliveries.delivered(deliveryTag)
                return nil
            }
            // Cancelled meanwhile: give it back to the queue right away.
            do throws(AMQPError) {
                try connection.nack(Self.consumeChannel, tag: deliveryTag, multiple: false, requeue: true)
                return nil
            } catch {
                return error
            }
        case .returned(let replyCode, let replyText, let exchange, let routingKey):
            let key = ConfirmTracker<PublishWaiter>.ReturnKey(
                exchange: exchange, routingKey: routingKey, body: content.body)
            if !confirms.markReturned(key, replyCode: replyCode, replyText: replyText) {
                logger.warning(
                    "amqp returned message matches no pending publish",
                    ["exchange": .string(exchange), "routing_key": .string(routingKey)])
            }
            return nil
        }
    }

    private func decoded<T>(_ method: amqp_method_t, as type: T.Type) -> T? {
        method.decoded?.assumingMemoryBound(to: T.self).pointee
    }
}
