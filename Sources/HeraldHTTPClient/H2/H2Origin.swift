/// The connections to one origin (scheme, host, port) and the requests
/// waiting there for a stream. Like libcurl with `CURLOPT_PIPEWAIT`, a new
/// connection opens only when every open one is full, up to
/// `maxConnectionsPerHost`, and one at a time.
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

    /// Whether a connection is still on its way to carry streams (resolving,
    /// connecting, handshaking, or waiting for the server's first SETTINGS).
    var isConnecting: Bool {
        connections.contains { $0.state != .closed && ($0.state != .open || !$0.settingsReceived) }
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
