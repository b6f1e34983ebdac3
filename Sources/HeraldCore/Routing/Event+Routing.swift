extension Event {
    /// The event as one target will be delivered after routing: the decision's
    /// `app`, its `set` fields replacing the event's, and its `defaults`
    /// filling only what the event leaves out.
    ///
    /// - Note: `content_available` is a plain boolean in an event, so a default
    ///   of `true` applies wherever the event says `false` or nothing;
    ///   `mutable_content` is filled only when the event does not give it.
    public func applying(_ decision: RouteDecision) -> Event {
        var event = self
        event.app = decision.app
        event.fill(from: decision.defaults)
        event.override(with: decision.set)
        return event
    }

    mutating func override(with o: EventOverrides) {
        if let v = o.priority { priority = v }
        if let v = o.ttl { expiry = .ttl(seconds: v) }
        if let v = o.pushType { pushType = v }
        if let v = o.collapseID { collapseID = v }
        if let v = o.sound { setSound(v) }
        if let v = o.contentAvailable { contentAvailable = v }
        if let v = o.mutableContent { mutableContent = v }
        if let v = o.debug { debug = v }
    }

    mutating func fill(from o: EventOverrides) {
        if priority == nil { priority = o.priority }
        if expiry == nil, let v = o.ttl { expiry = .ttl(seconds: v) }
        if pushType == nil { pushType = o.pushType }
        if collapseID == nil { collapseID = o.collapseID }
        if notification?.sound == nil, let v = o.sound { setSound(v) }
        if !contentAvailable, let v = o.contentAvailable { contentAvailable = v }
        if mutableContent == nil { mutableContent = o.mutableContent }
        if !debug, let v = o.debug { debug = v }
    }

    /// Whether the event as routed by `decision` asks for a debug trace
    /// (what ``applying(_:)`` would give), without building the routed event:
    /// a dropped target is traced too.
    public func debug(after decision: RouteDecision) -> Bool {
        decision.set.debug ?? (debug || decision.defaults.debug == true)
    }

    private mutating func setSound(_ name: String) {
        var n = notification ?? Notification()
        if var sound = n.sound {
            sound.name = name
            n.sound = sound
        } else {
            n.sound = Sound(name: name)
        }
        notification = n
    }
}
