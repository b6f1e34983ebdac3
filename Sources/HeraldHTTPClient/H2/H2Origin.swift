/// The connections to one origin (scheme, host, port) and the requests
/// waiting there for a stream. Like libcurl with `CURLOPT_PIPEWAIT`, a new
/// connection opens only when every open one is full, up to
/// `maxConnectionsPerHost`, one at a time, and only as many as the waiting
/// requests need at the origin's stream limit (`needsAnotherConnection`).
/// Requests fill the connections oldest first, so after a burst the extras
/// fall idle and close.
final class H2Origin {
    let url: H2URL
    var connections: [H2Connection] = []
    /// Requests without a stream yet, oldest first (from `queueHead`).
    var queue: [H2Stream] = []
    var queueHead = 0
    /// After a failed connect while other connections stay open (their
    /// requests wait), no new attempt before this (monotonic ns): a server
    /// refusing connections is not hammered once per loop pass.
    var connectBackoffUntil: UInt64 = 0

    var hostAndPort: String { url.host + ":" + String(url.port) }
    var hasQueued: Bool { queueHead < queue.count }

    init(url: H2URL) { self.url = url }

    func enqueue(_ stream: H2Stream) { queue.append(stream) }

    /// The oldest waiting request still wanted (cancelled or expired ones are skipped).
    func nextQueued() -> H2Stream? {
        while queueHead < queue.count {
            let stream = queue[queueHead]
            if !stream.isDone { return stream }
            queueHead += 1
        }
        compact()
        return nil
    }

    /// Puts `stream` back at the head of the queue (refused unprocessed, or its connection was full).
    func requeue(_ stream: H2Stream) {
        stream.connection = nil
        stream.streamID = -1
        if queueHead > 0 {
            queueHead -= 1
            queue[queueHead] = stream
        } else {
            queue.insert(stream, at: 0)
        }
    }

    func dequeue() {
        queueHead += 1
        compact()
    }

    /// Removes and returns every waiting request (a failed connect fails them all).
    func drainQueue() -> [H2Stream] {
        let drained = Array(queue[queueHead...]).filter { !$0.isDone }
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        return drained
    }

    /// The stream limit this origin's connections reached once their first
    /// stream ended (the largest seen): what a connection still on its first
    /// stream will offer. Nil until one got there.
    var learnedStreamLimit: Int?

    /// Whether the waiting requests need another connection: more of them
    /// than the connections still warming up will take once warm. No while a
    /// connection is still connecting or before any has shown the origin's
    /// limit (APNs allows one stream until a provider token is accepted,
    /// Google one until its first answer): connections open one at a time,
    /// and a burst does not open one connection per waiting request.
    func needsAnotherConnection(streamLimit: Int) -> Bool {
        var forthcoming = 0
        for connection in connections where connection.state != .closed && !connection.goAwayReceived {
            guard connection.state == .open, connection.settingsReceived else { return false }
            guard !connection.firstStreamEnded else { continue }
            guard let learned = learnedStreamLimit else { return false }
            forthcoming += max(0, min(streamLimit, learned) - connection.streams.count)
        }
        return queue.count - queueHead > forthcoming
    }

    /// Notes the stream limit a connection had when its first stream ended.
    func learned(_ streamLimit: Int) {
        learnedStreamLimit = max(learnedStreamLimit ?? 0, streamLimit)
    }

    func remove(_ connection: H2Connection) {
        connections.removeAll { $0 === connection }
    }

    private func compact() {
        if queueHead > 0 && queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        } else if queueHead > 1024 && queueHead * 2 > queue.count {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
    }
}
